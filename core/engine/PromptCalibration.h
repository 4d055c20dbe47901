#pragma once
// Prompts that are as long as asked on the server's own tokenizer, with no tokenizer download.
// `input_tokens: 256` used to send 256 words: a real llama-server counted 300 prompt tokens
// (+17 %), a real vLLM with a small BPE vocabulary 2.25 tokens per word (+125 %). Before a
// server's first cell, probe requests shaped exactly like the benchmark's (same endpoint, chat
// template, tag width, shared prefix) but with max_tokens 1 and no streaming are sent through the
// control client (never counted as load); each answer's usage.prompt_tokens says how the server
// counted that prompt. Interpolation between a too-short and a too-long filler (in characters)
// converges on the requested count, template overhead included. The result is cached per model
// and endpoint, so servers serving the same model get the same prompt text and a comparison is
// fair (docs/ARCHITECTURE.md §15).
#include "hooks/ControlClient.h"
#include "spec/SweepSpec.h"
#include <QHash>
#include <QJsonObject>
#include <atomic>
#include <functional>

namespace sb {

struct PromptCalibration {
    int target = 0;          // requested prompt tokens
    int fillerChars = -1;    // -1 = not calibrated (word heuristic)
    int measuredTokens = -1; // the server's count of the chosen prompt
    int probes = 0;          // requests sent
    int tokenizeCalls = 0;   // POST /tokenize calls (the cheaper path, when the server has it)
    bool viaTokenize = false; // the search ran on /tokenize, checked by probes
    QString error;           // why calibration failed (requests then use the word heuristic)
    bool ok() const { return fillerChars >= 0; }
    QJsonObject toJson() const;
    static PromptCalibration fromJson(const QJsonObject &o);
};

// The key servers share a calibration under: same model and endpoint, same prompt shape.
QString calibrationKey(const ServerSpec &server, const WorkloadSpec &w);

// The calibrations of one results folder (OUT/calibration.json): a resumed run reuses them, so
// its new cells get the same prompts as the kept ones.
class CalibrationStore
{
public:
    explicit CalibrationStore(const QString &outDir);
    const PromptCalibration *find(const QString &key) const;
    // Records and saves (atomically); false and *error when the file could not be written.
    bool put(const QString &key, const PromptCalibration &c, QString *error);

private:
    QString m_path;
    QJsonObject m_all;
    QHash<QString, PromptCalibration> m_byKey;
};

class PromptCalibrator
{
public:
    PromptCalibrator(ControlClient &client, const std::atomic<bool> *cancel) : m_client(client), m_cancel(cancel) {}
    // `baseUrl`: the server's OpenAI base URL; `tag`: a prompt tag of the benchmark's shape.
    PromptCalibration calibrate(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag);
    // The server's prompt token count for a filler of `chars` characters; -1 and *error on failure.
    // -2 (and *error) for an HTTP 400: the prompt is past the server's context limit (or
    // otherwise refused); the search then shrinks instead of failing.
    int probe(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag, int chars, QString *error,
              int ticket = 0);
    // The server's token count of the same prompt by its /tokenize route (vLLM: the chat
    // template applied; llama.cpp: the text alone — probes measure the difference); -1 when
    // the route is missing or answers something else.
    int tokenize(const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w, const QByteArray &tag, int chars, QString *error,
                 int ticket = 0);

private:
    // Finds the filler length whose mean count by `measure` is closest to `target` (bracket,
    // then interpolation); false and c.error when it cannot.
    bool search(double target, const std::function<double(int)> &measure, PromptCalibration &c, int *best, double *value);

    ControlClient &m_client;
    const std::atomic<bool> *m_cancel;
};

} // namespace sb
