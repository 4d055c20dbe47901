// llama-server's own routes for the llamacpp personality (docs/spec-reference.md, flavor
// llamacpp): the slot list and slot erase (no erase-all route; erase needs --slot-save-path, else
// 501; erasing a busy slot waits until its request ends), /props, /tokenize and /apply-template,
// and the usage/timings that llama-server puts on its answers. Error bodies have its shape:
// {"error": {"code", "message", "type"}}.
#include "mock/MockWorker.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <algorithm>

namespace sb {

namespace {
QByteArray llamaError(int code, const char *type, const QByteArray &message)
{
    return R"({"error":{"code":)" + QByteArray::number(code) + R"(,"message":)" + jsonQuoted(message)
           + R"(,"type":")" + type + "\"}}";
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

constexpr const char *kChatMlTemplate =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
} // namespace

QByteArrayView MockWorker::llamaHeaders() const
{
    // What llama-server (cpp-httplib) sends on every keep-alive answer, streams included.
    return m_cfg.flavor == Flavor::Llamacpp ? QByteArrayView("keep-alive: timeout=5, max=100\r\n") : QByteArrayView();
}

MockLlamaUsage MockWorker::llamaUsage(const Exchange &ex, int completionTokens) const
{
    MockLlamaUsage u;
    u.promptTokens = ex.promptTokens;
    u.completionTokens = completionTokens;
    u.cachedTokens = ex.cachedTokens;
    const qint64 now = MockServer::nowNs();
    const qint64 prefilled = ex.prefilledNs > 0 ? ex.prefilledNs : now;
    const double promptMs = double(std::max<qint64>(0, prefilled - ex.arrivalNs)) / 1e6;
    const double predictedMs = double(std::max<qint64>(0, now - prefilled)) / 1e6;
    const int promptN = ex.promptTokens - ex.cachedTokens;
    auto perSecond = [](int n, double ms) { return ms > 0 ? 1000.0 * n / ms : 0.0; };
    auto perToken = [](int n, double ms) { return n > 0 ? ms / n : 0.0; };
    u.timings = compact(QJsonObject{{QStringLiteral("cache_n"), ex.cachedTokens},
                                    {QStringLiteral("prompt_n"), promptN},
                                    {QStringLiteral("prompt_ms"), promptMs},
                                    {QStringLiteral("prompt_per_token_ms"), perToken(promptN, promptMs)},
                                    {QStringLiteral("prompt_per_second"), perSecond(promptN, promptMs)},
                                    {QStringLiteral("predicted_n"), completionTokens},
                                    {QStringLiteral("predicted_ms"), predictedMs},
                                    {QStringLiteral("predicted_per_token_ms"), perToken(completionTokens, predictedMs)},
                                    {QStringLiteral("predicted_per_second"), perSecond(completionTokens, predictedMs)}});
    return u;
}

QByteArray MockWorker::eraseSlotAnswer(int slot)
{
    const int erased = m_scheduler->eraseSlot(slot);
    {
        QMutexLocker lock(&m_shared->mutex);
        ++m_shared->stats.slotsErased;
    }
    return R"({"id_slot":)" + QByteArray::number(slot) + R"(,"n_erased":)" + QByteArray::number(erased) + "}";
}

bool MockWorker::routeLlamacpp(Connection *c, const MockHttpRequest &req)
{
    const QByteArray &p = req.path;
    const bool slotRoute = p == "/slots" || p.startsWith("/slots/");
    if (!slotRoute && p != "/props" && p != "/tokenize" && p != "/apply-template")
        return false;
    const qint64 now = MockServer::nowNs();
    const int inFlight = m_inFlight;
    auto answer = [&](int status, const QByteArray &body) {
        answerControl(c, req.method, req.target, now, inFlight, {status, QByteArrayLiteral("application/json"), body});
        return true;
    };
    auto notFound = [&] { return answer(404, llamaError(404, "not_found_error", "File Not Found")); };

    if (p == "/slots") {
        if (req.method != "GET")
            return notFound();
        QJsonArray list;
        int idle = 0;
        for (int i = 0; i < m_scheduler->slotCount(); ++i) {
            const bool busy = m_scheduler->slotBusy(i);
            idle += busy ? 0 : 1;
            QJsonObject slot{{QStringLiteral("id"), i},
                             {QStringLiteral("n_ctx"), m_cfg.slotContext},
                             {QStringLiteral("speculative"), false},
                             {QStringLiteral("is_processing"), busy}};
            if (m_scheduler->slotUsed(i)) // llama-server adds its task's figures once it had one
                slot.insert(QStringLiteral("n_prompt_tokens"), m_scheduler->slotTokens(i));
            list.append(slot);
        }
        bool failOnNoSlot = false;
        req.queryValue("fail_on_no_slot", &failOnNoSlot);
        if (failOnNoSlot && idle == 0)
            return answer(503, llamaError(503, "unavailable_error", "no slot available"));
        return answer(200, QJsonDocument(list).toJson(QJsonDocument::Compact));
    }
    if (slotRoute) { // /slots/{id}?action=...
        if (req.method != "POST")
            return notFound();
        if (!m_cfg.slotSavePath)
            return answer(501, llamaError(501, "not_supported_error",
                                          "This server does not support slots action. Start it with `--slot-save-path`"));
        bool ok = false;
        const int slot = p.mid(7).toInt(&ok);
        if (!ok || slot < 0 || slot >= m_scheduler->slotCount())
            return answer(400, llamaError(400, "invalid_request_error", "Invalid slot ID"));
        const QByteArray action = req.queryValue("action");
        if (action == "save" || action == "restore") // the mock keeps no slot files
            return answer(501, llamaError(501, "not_supported_error", "sweepbench mock-server: only action=erase"));
        if (action != "erase")
            return answer(400, llamaError(400, "invalid_request_error", "Invalid action"));
        if (m_scheduler->slotBusy(slot)) { // llama-server defers the erase until the slot is free
            c->pendingFlush = PendingControl{req.method, req.target, now, inFlight, 0, slot};
            m_flushPoll->start();
            return true;
        }
        return answer(200, eraseSlotAnswer(slot));
    }
    if (p == "/props") {
        if (req.method != "GET")
            return answer(501, llamaError(501, "not_supported_error",
                                          "This server does not support changing global properties. Start it with `--props`"));
        // The fields of llama-server's /props that a benchmark may read. Like the real one, it
        // does not show the host-RAM prompt cache (--cache-ram).
        const QJsonObject props{
            {QStringLiteral("default_generation_settings"),
             QJsonObject{{QStringLiteral("n_ctx"), m_cfg.slotContext}, {QStringLiteral("params"), QJsonObject{{QStringLiteral("cache_prompt"), true}}}}},
            {QStringLiteral("total_slots"), m_scheduler->slotCount()},
            {QStringLiteral("model_alias"), m_cfg.model},
            {QStringLiteral("model_path"), QStringLiteral("sweepbench-mock.gguf")},
            {QStringLiteral("modalities"), QJsonObject{{QStringLiteral("vision"), false}, {QStringLiteral("audio"), false}}},
            {QStringLiteral("endpoint_slots"), true},
            {QStringLiteral("endpoint_props"), false},
            {QStringLiteral("endpoint_metrics"), false},
            {QStringLiteral("chat_template"), QString::fromLatin1(kChatMlTemplate)},
            {QStringLiteral("bos_token"), QStringLiteral("<s>")},
            {QStringLiteral("eos_token"), QStringLiteral("</s>")},
            {QStringLiteral("build_info"), QStringLiteral("sweepbench-mock")},
            {QStringLiteral("is_sleeping"), false}};
        return answer(200, compact(props));
    }
    if (req.method != "POST")
        return notFound();
    const QJsonDocument doc = QJsonDocument::fromJson(req.body);
    const QJsonObject body = doc.object();
    if (p == "/tokenize") {
        const QJsonValue content = body.value(QLatin1String("content"));
        if (!doc.isObject() || !content.isString())
            return answer(400, llamaError(400, "invalid_request_error", "\"content\" must be provided"));
        QJsonArray tokens;
        for (const quint32 t : mockTokenize(content.toString().toUtf8()))
            tokens.append(qint64(t));
        return answer(200, compact(QJsonObject{{QStringLiteral("tokens"), tokens}}));
    }
    // /apply-template
    const QByteArray prompt = chatMlPrompt(body.value(QLatin1String("messages")));
    if (!doc.isObject() || prompt.isEmpty())
        return answer(400, llamaError(400, "invalid_request_error", "'messages' is required and must be an array of objects"));
    return answer(200, compact(QJsonObject{{QStringLiteral("prompt"), QString::fromUtf8(prompt)}}));
}

} // namespace sb
