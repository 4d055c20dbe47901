#include "engine/ServerIdentity.h"
#include "engine/ServerPreflight.h"
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

namespace sb {

namespace {
const QString kRedacted = QStringLiteral("[redacted]");

// Settings worth knowing when two runs are compared, by the names vLLM's config, SGLang's server
// args and llama.cpp's /props use. Credentials are never among them.
const QStringList &selectedSettings()
{
    static const QStringList keys = {
        // vLLM
        QStringLiteral("max_num_seqs"), QStringLiteral("max_num_batched_tokens"), QStringLiteral("max_model_len"),
        QStringLiteral("max_seq_len"), QStringLiteral("enable_chunked_prefill"), QStringLiteral("chunked_prefill_enabled"),
        QStringLiteral("enable_prefix_caching"), QStringLiteral("tensor_parallel_size"), QStringLiteral("pipeline_parallel_size"),
        QStringLiteral("data_parallel_size"), QStringLiteral("gpu_memory_utilization"), QStringLiteral("block_size"),
        QStringLiteral("dtype"), QStringLiteral("kv_cache_dtype"), QStringLiteral("cache_dtype"), QStringLiteral("quantization"),
        QStringLiteral("enforce_eager"), QStringLiteral("seed"), QStringLiteral("revision"),
        // SGLang
        QStringLiteral("tp_size"), QStringLiteral("dp_size"), QStringLiteral("pp_size"), QStringLiteral("max_running_requests"),
        QStringLiteral("chunked_prefill_size"), QStringLiteral("max_total_tokens"), QStringLiteral("max_prefill_tokens"),
        QStringLiteral("context_length"), QStringLiteral("mem_fraction_static"), QStringLiteral("attention_backend"),
        QStringLiteral("schedule_policy"), QStringLiteral("disable_radix_cache"), QStringLiteral("page_size"),
        // llama.cpp
        QStringLiteral("total_slots"), QStringLiteral("n_ctx")};
    return keys;
}

QString clip(const SecretSet &secrets, const QString &text, int limit = kMaxServerInfoText)
{
    QString s = secrets.scrub(text);
    if (s.size() > limit)
        s = s.left(limit) + QChar(0x2026);
    for (QChar &c : s)
        if (c.category() == QChar::Other_Control)
            c = QLatin1Char(' ');
    return s;
}

QString scalarText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    return QString();
}

// Leaf scalars named like a selected setting, a few levels down (vLLM nests its config:
// scheduler_config.max_num_seqs); the first occurrence of a name wins.
void selectSettings(const QJsonValue &v, int depth, ServerInfo &info, const SecretSet &secrets)
{
    if (depth > 4 || !v.isObject())
        return;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end() && info.args.size() < kMaxServerInfoArgs; ++it) {
        if (it.value().isObject()) {
            selectSettings(it.value(), depth + 1, info, secrets);
        } else if (selectedSettings().contains(it.key()) && !info.args.contains(it.key())) {
            const QString text = scalarText(it.value());
            if (!text.isEmpty() || it.value().isString())
                info.args.insert(it.key(), clip(secrets, text));
        }
    }
}

// vLLM's /server_info has held its config as Python's repr text ("max_num_seqs=256, ..."):
// the selected names are read from it.
void selectSettingsFromText(const QString &text, ServerInfo &info, const SecretSet &secrets)
{
    static const QRegularExpression pair(QStringLiteral("\\b([a-z_]+)=('[^']*'|[^,() ]+)"));
    for (auto it = pair.globalMatch(text); it.hasNext() && info.args.size() < kMaxServerInfoArgs;) {
        const auto m = it.next();
        const QString key = m.captured(1);
        if (selectedSettings().contains(key) && !info.args.contains(key)) {
            QString value = m.captured(2);
            if (value.startsWith(QLatin1Char('\'')))
                value = value.mid(1, value.size() - 2);
            info.args.insert(key, clip(secrets, value));
        }
    }
}

void readModelList(const QByteArray &body, const QString &wanted, ServerInfo &info, ServerInfoRoute &route, const SecretSet &secrets)
{
    const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
    if (data.isEmpty()) {
        route.error = QStringLiteral("no model list (expected {\"data\": [...]})");
        route.excerpt = clip(secrets, QString::fromUtf8(body.left(kMaxServerInfoExcerpt)), kMaxServerInfoExcerpt);
        return;
    }
    QJsonObject entry = data.first().toObject();
    for (const QJsonValue &v : data)
        if (v.toObject().value(QLatin1String("id")).toString() == wanted) {
            entry = v.toObject();
            break;
        }
    info.model = clip(secrets, entry.value(QLatin1String("id")).toString());
    info.modelRoot = clip(secrets, entry.value(QLatin1String("root")).toString());
    info.ownedBy = clip(secrets, entry.value(QLatin1String("owned_by")).toString());
    if (const QJsonValue len = entry.value(QLatin1String("max_model_len")); len.isDouble() && len.toDouble() >= 0 && len.toDouble() < 1e12)
        info.maxModelLen = qint64(len.toDouble());
}
} // namespace

QStringList identityRoutes(Flavor flavor)
{
    switch (flavor) {
    case Flavor::Vllm:
    case Flavor::Openai:
        return {QStringLiteral("/version"), QStringLiteral("/server_info")};
    case Flavor::Sglang:
        return {QStringLiteral("/get_server_info")};
    case Flavor::Llamacpp:
        return {QStringLiteral("/props")};
    case Flavor::Trtllm:
        return {QStringLiteral("/version")};
    }
    return {};
}

void readIdentityAnswer(const QString &route, const QByteArray &body, ServerInfo &info, const SecretSet &secrets)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (info.version.isEmpty()) // vLLM /version, SGLang's server info; llama.cpp names its build
        info.version = clip(secrets, scalarText(o.value(QLatin1String("version"))));
    if (info.version.isEmpty() && route == QLatin1String("/props"))
        info.version = clip(secrets, o.value(QLatin1String("build_info")).toString());
    if (info.model.isEmpty())
        for (const char *key : {"model_path", "served_model_name", "model_alias"})
            if (const QString m = scalarText(o.value(QLatin1String(key))); !m.isEmpty()) {
                info.model = clip(secrets, m);
                break;
            }
    const QJsonValue config = o.value(QLatin1String("vllm_config"));
    if (config.isString())
        selectSettingsFromText(config.toString().left(kMaxIdentityAnswerBytes), info, secrets);
    selectSettings(o, 0, info, secrets);
}

ServerInfo fetchServerIdentity(ControlClient &client, const ServerSpec &server, const QString &origin, const QString &baseUrl,
                               const QList<QPair<QByteArray, QByteArray>> &headers, const SecretSet &secrets,
                               const std::atomic<bool> *cancel)
{
    ServerInfo info;
    info.flavor = toString(server.flavor);
    info.fetchedAt = QDateTime::currentDateTimeUtc();
    QList<QPair<QString, QUrl>> asks;
    for (const QString &route : identityRoutes(server.flavor))
        asks.append({route, QUrl(origin + route)});
    const QUrl models = modelListUrl(baseUrl);
    asks.append({models.path(), models});
    for (const auto &[route, url] : asks) {
        if (cancel && *cancel)
            break;
        ServerInfoRoute r;
        r.path = route;
        const ControlResponse answer = client.call("GET", url, headers, std::nullopt, kIdentityCallTimeoutS, cancel, kMaxIdentityAnswerBytes);
        r.status = answer.status;
        const bool isModels = url == models;
        if (answer.oversize)
            r.error = QStringLiteral("answer larger than %1 bytes: not used").arg(kMaxIdentityAnswerBytes);
        else if (!answer.complete())
            r.error = clip(secrets, answer.transportError.isEmpty() ? QStringLiteral("no answer") : answer.transportError);
        else if (answer.status < 200 || answer.status >= 300)
            r.error = QStringLiteral("HTTP %1").arg(answer.status);
        else if (!QJsonDocument::fromJson(answer.body).isObject()) {
            r.error = QStringLiteral("not a JSON object");
            r.excerpt = clip(secrets, QString::fromUtf8(answer.body.left(kMaxServerInfoExcerpt)), kMaxServerInfoExcerpt);
        } else if (isModels)
            readModelList(answer.body, server.model, info, r, secrets);
        else
            readIdentityAnswer(route, answer.body, info, secrets);
        info.routes.append(r);
    }
    if (server.flavor == Flavor::Vllm && !(cancel && *cancel)) // its KV block size is only in /metrics
        readVllmBlockSize(client, server, origin, headers, info, cancel);
    return info;
}

int blockSizeFromMetrics(const QByteArray &text)
{
    // vllm:cache_config_info{...,block_size="128",...} 1.0 — an info gauge whose labels are the config.
    static const QRegularExpression line(QStringLiteral("^vllm:cache_config_info\\{[^\\n]*\\bblock_size=\"(\\d{1,7})\""),
                                         QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = line.match(QString::fromUtf8(text));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

void readVllmBlockSize(ControlClient &client, const ServerSpec &server, const QString &origin,
                       const QList<QPair<QByteArray, QByteArray>> &headers, ServerInfo &info, const std::atomic<bool> *cancel)
{
    const QString path = server.metrics.path.isEmpty() ? QStringLiteral("/metrics") : server.metrics.path;
    ServerInfoRoute r;
    r.path = path;
    const ControlResponse answer = client.call("GET", QUrl(origin + path), headers, std::nullopt, kIdentityCallTimeoutS, cancel, kMaxMetricsIdentityBytes);
    r.status = answer.status;
    if (answer.oversize)
        r.error = QStringLiteral("answer larger than %1 bytes: not used").arg(kMaxMetricsIdentityBytes);
    else if (!answer.complete() || answer.status < 200 || answer.status >= 300)
        r.error = answer.status ? QStringLiteral("HTTP %1").arg(answer.status) : QStringLiteral("no answer");
    else if (const int block = blockSizeFromMetrics(answer.body); block > 0 && !info.args.contains(QStringLiteral("block_size")))
        info.args.insert(QStringLiteral("block_size"), QString::number(block));
    else if (block <= 0)
        r.error = QStringLiteral("no vllm:cache_config_info block_size");
    info.routes.append(r);
}

void recordLaunch(ServerInfo &info, const LaunchSpec &launch, int port, const SecretSet &secrets)
{
    const QStringList hidden = credentialArgValues(launch.command);
    const QString portText = QString::number(port);
    info.command.clear();
    for (QString arg : launch.command) {
        if (info.command.size() >= kMaxServerInfoListed)
            break;
        arg.replace(QStringLiteral("{port}"), portText);
        for (const QString &h : hidden)
            if (!h.isEmpty())
                arg.replace(h, kRedacted);
        info.command.append(clip(secrets, arg));
    }
    info.env.clear();
    for (const auto &[name, value] : launch.env) {
        if (info.env.size() >= kMaxServerInfoListed)
            break;
        info.env.append({name, isCredentialHeader(name) ? kRedacted : clip(secrets, QString(value).replace(QStringLiteral("{port}"), portText))});
    }
}

GpuQuery queryGpus(double timeoutS)
{
    GpuQuery q;
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.setStandardErrorFile(QProcess::nullDevice());
    p.start(QStringLiteral("nvidia-smi"), {QStringLiteral("--query-gpu=name,memory.total,driver_version"), QStringLiteral("--format=csv,noheader")});
    if (!p.waitForStarted(int(timeoutS * 1000))) {
        q.error = QStringLiteral("nvidia-smi not found or not startable (%1)").arg(p.errorString());
        return q;
    }
    // Read as it comes, one pipe's worth at a time (waitForFinished would buffer all of a flood).
    QByteArray out;
    QElapsedTimer t;
    t.start();
    bool finished = false;
    for (;;) {
        out += p.read(kMaxGpuQueryBytes + 1 - out.size());
        if (out.size() > kMaxGpuQueryBytes || p.state() == QProcess::NotRunning) {
            finished = p.state() == QProcess::NotRunning;
            break;
        }
        const qint64 left = qint64(timeoutS * 1000) - t.elapsed();
        if (left <= 0)
            break;
        p.waitForReadyRead(int(std::min<qint64>(left, 100)));
    }
    if (out.size() > kMaxGpuQueryBytes || !finished) {
        p.kill();
        p.waitForFinished(1000);
        q.error = out.size() > kMaxGpuQueryBytes ? QStringLiteral("nvidia-smi printed more than %1 bytes: not used").arg(kMaxGpuQueryBytes)
                                                 : QStringLiteral("nvidia-smi did not finish within %1 s").arg(timeoutS);
        return q;
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        q.error = QStringLiteral("nvidia-smi failed (exit code %1)").arg(p.exitCode());
        return q;
    }
    for (const QByteArray &line : out.split('\n')) {
        const QList<QByteArray> fields = line.trimmed().split(',');
        if (fields.size() != 3)
            continue;
        if (q.gpus.size() >= kMaxServerInfoGpus) {
            q.error = QStringLiteral("more than %1 GPUs: the first %1 are listed").arg(kMaxServerInfoGpus);
            break;
        }
        const SecretSet none;
        q.gpus.append({clip(none, QString::fromUtf8(fields[0].trimmed())), clip(none, QString::fromUtf8(fields[1].trimmed())),
                       clip(none, QString::fromUtf8(fields[2].trimmed()))});
    }
    if (q.gpus.isEmpty() && q.error.isEmpty())
        q.error = QStringLiteral("nvidia-smi listed no GPU");
    return q;
}

} // namespace sb
