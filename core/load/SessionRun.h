#pragma once
// One connection's chat session (workload.sessions): which session and turn it is on, and the
// conversation so far, the user messages it sent and the server's own answers, sent back as the
// next turn's history. The answer is kept as the stream's JSON-escaped content pieces, so it
// goes back into the next request as it came, without decoding and encoding it again.
#include <QByteArray>
#include <cstdint>
#include <string_view>

namespace sb {

// What one session may make the client keep: an answer past this is not sent back (the session
// ends after that turn), and so is a history that would pass kMaxSessionHistoryBytes. A few
// thousand turns of long answers fit; a server streaming megabytes of content cannot make us
// hold, nor send, more.
inline constexpr qsizetype kMaxSessionAnswerBytes = 4 * 1024 * 1024;
inline constexpr qsizetype kMaxSessionHistoryBytes = 32 * 1024 * 1024;

class SessionRun
{
public:
    bool active() const { return m_turns > 0; }
    // Starts session `id` of `turns` turns (≥ 1), with shared prefix `prefix` (-1 none).
    // `keepHistory` false: the turns do not carry the earlier ones (a mooncake trace's prompts
    // already hold them), so nothing of them is kept.
    void begin(std::int64_t id, int turns, int prefix, bool keepHistory = true);
    void end() { *this = SessionRun(); }
    std::int64_t id() const { return m_id; }
    int prefix() const { return m_prefix; }
    int nextTurn() const { return m_turn + 1; }     // the turn the next request sends (1-based)
    bool moreTurns() const { return m_turn < m_turns; }
    const QByteArray &history() const { return m_history; }
    // workload.images: the images turn 1 carried, which every later turn re-sends in its history.
    void setImages(int count, std::int64_t bytes) { m_images = count, m_imageBytes = bytes; }
    int images() const { return m_images; }
    std::int64_t imageBytes() const { return m_imageBytes; }
    // Tokens of the earlier turns as the server counted them (prompt + answer of the last turn);
    // -1 on turn 1 or when the server reported no usage.
    std::int32_t historyTokens() const { return m_historyTokens; }

    // The outstanding turn: its user message as sent, then the answer's content as it streams.
    void sent(QByteArray userMessage);
    void addAnswer(std::string_view escapedContent);
    void setAnswer(const QByteArray &escapedContent); // a non-streamed answer, whole
    // The turn ended: ok turns join the history; a failed turn, an oversized answer or history
    // ends the session (its next turn would not be the conversation the server had).
    void turnEnded(bool ok, std::int32_t promptTokens, std::int32_t completionTokens);

private:
    std::int64_t m_id = -1;
    int m_turns = 0;
    int m_turn = 0;   // turns sent so far
    int m_prefix = -1;
    QByteArray m_history;
    QByteArray m_user;
    QByteArray m_answer;
    bool m_answerCut = false;
    bool m_keepHistory = true;
    int m_images = 0;
    std::int64_t m_imageBytes = 0;
    std::int32_t m_historyTokens = -1;
};

} // namespace sb
