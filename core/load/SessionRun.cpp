#include "load/SessionRun.h"

namespace sb {

void SessionRun::begin(std::int64_t id, int turns, int prefix, bool keepHistory)
{
    end();
    m_id = id;
    m_turns = turns < 1 ? 1 : turns;
    m_prefix = prefix;
    m_keepHistory = keepHistory;
}

void SessionRun::sent(QByteArray userMessage)
{
    ++m_turn;
    m_user = std::move(userMessage);
    m_answer.clear();
    m_answerCut = false;
}

void SessionRun::addAnswer(std::string_view escapedContent)
{
    if (m_answerCut || !m_keepHistory)
        return;
    if (m_answer.size() + qsizetype(escapedContent.size()) > kMaxSessionAnswerBytes) {
        m_answerCut = true;
        return;
    }
    m_answer.append(escapedContent.data(), qsizetype(escapedContent.size()));
}

void SessionRun::setAnswer(const QByteArray &escapedContent)
{
    m_answer.clear();
    m_answerCut = false;
    addAnswer(std::string_view(escapedContent.constData(), std::size_t(escapedContent.size())));
}

void SessionRun::turnEnded(bool ok, std::int32_t promptTokens, std::int32_t completionTokens)
{
    const qsizetype grown = m_history.size() + m_user.size() + m_answer.size() + 48;
    if (!ok || m_answerCut || grown > kMaxSessionHistoryBytes) {
        end();
        return;
    }
    if (!m_history.isEmpty())
        m_history += ',';
    m_history += m_user;
    m_history += ",{\"content\":\"";
    m_history += m_answer;
    m_history += "\",\"role\":\"assistant\"}";
    m_historyTokens = promptTokens >= 0 && completionTokens >= 0 ? promptTokens + completionTokens : -1;
    if (!m_keepHistory)
        m_history.clear();
    m_user.clear();
    m_answer.clear();
    if (!moreTurns())
        end();
}

} // namespace sb
