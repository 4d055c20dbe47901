#include "mock/MockProfiler.h"
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSysInfo>

namespace sb {

namespace {
MockAnswer text(int status, const char *s)
{
    return {status, QByteArrayLiteral("text/plain; charset=utf-8"), QByteArray(s)};
}
MockAnswer json(int status, const QJsonObject &o)
{
    return {status, QByteArrayLiteral("application/json"), QJsonDocument(o).toJson(QJsonDocument::Compact)};
}
// FastAPI's validation-error shape, as trtllm-serve answers a bad body.
MockAnswer unprocessable(const QString &field, const QString &msg)
{
    QJsonObject d{{QStringLiteral("loc"), QJsonArray{QStringLiteral("body"), field}},
                  {QStringLiteral("msg"), msg},
                  {QStringLiteral("type"), QStringLiteral("value_error")}};
    return json(422, QJsonObject{{QStringLiteral("detail"), QJsonArray{d}}});
}
bool isNonNegativeInt(const QJsonValue &v)
{
    return v.isDouble() && v.toDouble() >= 0 && v.toDouble() == double(v.toInteger());
}
} // namespace

QString MockProfiler::defaultDir() const
{
    return m_cfg.traceDir.isEmpty() ? QDir::tempPath() + QStringLiteral("/sweepbench-mock-traces")
                                    : m_cfg.traceDir;
}

MockAnswer MockProfiler::start(const QByteArray &body, bool *started)
{
    *started = false;
    switch (m_cfg.flavor) {
    case Flavor::Trtllm:
        return startTrtllm(body, started);
    case Flavor::Sglang:
        return startSglang(body, started);
    case Flavor::Vllm:
    case Flavor::Openai:
    case Flavor::Llamacpp: // never called: llama-server has no profiler routes (404)
        break;
    }
    // vLLM: empty body, 200 empty; a second start while one runs is a no-op.
    if (!m_window) {
        Window w;
        w.id = m_nextId++;
        w.outputDir = defaultDir();
        m_window = std::move(w);
        *started = true;
    }
    return {200, {}, {}};
}

MockAnswer MockProfiler::startSglang(const QByteArray &body, bool *started)
{
    QJsonObject o;
    if (!body.trimmed().isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(body);
        if (!doc.isObject())
            return text(400, "Invalid request body: expected a JSON object.\n");
        o = doc.object();
    }
    if (m_window)
        return text(400, "Profiling is already in progress. Call /stop_profile first.\n");
    Window w;
    w.id = m_nextId++;
    w.outputDir = o.value(QLatin1String("output_dir")).toString(defaultDir());
    w.prefix = o.value(QLatin1String("profile_prefix")).toString();
    for (const QJsonValue &a : o.value(QLatin1String("activities")).toArray())
        w.activities << a.toString();
    if (w.activities.isEmpty())
        w.activities = {QStringLiteral("CPU"), QStringLiteral("GPU")};
    w.numSteps = std::max(0, int(o.value(QLatin1String("num_steps")).toInteger(0)));
    w.skipSteps = std::max(0, int(o.value(QLatin1String("start_step")).toInteger(0)));
    m_window = std::move(w);
    *started = true;
    return text(200, "Start profiling.\n");
}

MockAnswer MockProfiler::startTrtllm(const QByteArray &body, bool *started)
{
    QJsonObject o;
    if (!body.trimmed().isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(body);
        if (!doc.isObject())
            return unprocessable(QStringLiteral("body"), QStringLiteral("Input should be a valid JSON object"));
        o = doc.object();
    }
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString k = it.key();
        const QJsonValue v = it.value();
        if (k == QLatin1String("output_dir")) {
            if (!v.isString())
                return unprocessable(k, QStringLiteral("Input should be a valid string"));
        } else if (k == QLatin1String("num_steps")) {
            if (!isNonNegativeInt(v) || v.toInteger() <= 0)
                return unprocessable(k, QStringLiteral("Input should be greater than 0"));
        } else if (k == QLatin1String("start_step")) {
            if (!isNonNegativeInt(v))
                return unprocessable(k, QStringLiteral("Input should be greater than or equal to 0"));
        } else if (k == QLatin1String("activities")) {
            if (!v.isArray())
                return unprocessable(k, QStringLiteral("Input should be a valid list"));
            for (const QJsonValue &a : v.toArray()) {
                const QString s = a.toString();
                if (s != QLatin1String("CPU") && s != QLatin1String("GPU") && s != QLatin1String("CUDA_PROFILER"))
                    return unprocessable(k, QStringLiteral("Input should be 'CPU', 'GPU' or 'CUDA_PROFILER'"));
            }
        } else {
            return unprocessable(k, QStringLiteral("Extra inputs are not permitted"));
        }
    }
    if (m_window) // active, or pending until start_step
        return json(409, QJsonObject{{QStringLiteral("detail"),
                                      QStringLiteral("A profiling window is already active or pending.")}});
    Window w;
    w.id = m_nextId++;
    w.outputDir = o.value(QLatin1String("output_dir")).toString(defaultDir());
    for (const QJsonValue &a : o.value(QLatin1String("activities")).toArray())
        w.activities << a.toString();
    if (w.activities.isEmpty())
        w.activities = {QStringLiteral("CPU"), QStringLiteral("GPU")};
    w.numSteps = int(o.value(QLatin1String("num_steps")).toInteger(0));
    w.skipSteps = int(o.value(QLatin1String("start_step")).toInteger(0));
    const int id = w.id;
    m_window = std::move(w);
    m_autoStoppedFile.clear();
    *started = true;
    return json(200, QJsonObject{{QStringLiteral("status"), QStringLiteral("started")},
                                 {QStringLiteral("profile_id"), id}});
}

MockAnswer MockProfiler::stop()
{
    const bool trt = m_cfg.flavor == Flavor::Trtllm;
    const bool sgl = m_cfg.flavor == Flavor::Sglang;
    if (!m_window) {
        if (trt && !m_autoStoppedFile.isEmpty()) { // closed by num_steps: report that trace
            const QString file = std::exchange(m_autoStoppedFile, QString());
            return json(200, QJsonObject{{QStringLiteral("status"), QStringLiteral("stopped")},
                                         {QStringLiteral("profile_id"), m_autoStoppedId},
                                         {QStringLiteral("trace_files"), QJsonArray{file}}});
        }
        if (trt)
            return json(409, QJsonObject{{QStringLiteral("detail"), QStringLiteral("No profiling window is active.")}});
        if (sgl)
            return text(400, "Profiling is not in progress. Call /start_profile first.\n");
        return {200, {}, {}};
    }
    const int id = m_window->id;
    QString error;
    const QString file = finish(&error);
    if (file.isEmpty()) {
        if (trt)
            return json(500, QJsonObject{{QStringLiteral("detail"), error}});
        return text(500, "Failed to write the profiler trace.\n");
    }
    // The answer goes out only now, after the trace is on disk (trtllm's contract; vLLM's
    // stop also blocks while it writes).
    if (trt)
        return json(200, QJsonObject{{QStringLiteral("status"), QStringLiteral("stopped")},
                                     {QStringLiteral("profile_id"), id},
                                     {QStringLiteral("trace_files"), QJsonArray{file}}});
    if (sgl)
        return text(200, "Stop profiling. This will take some time.\n");
    return {200, {}, {}};
}

void MockProfiler::onStep(const MockStepRecord &step)
{
    if (!m_window)
        return;
    if (m_window->skipSteps > 0) {
        --m_window->skipSteps;
        return;
    }
    m_window->steps.push_back(step);
    if (m_window->numSteps > 0 && int(m_window->steps.size()) >= m_window->numSteps) {
        const int id = m_window->id;
        QString error;
        const QString file = finish(&error);
        if (m_cfg.flavor == Flavor::Trtllm) {
            m_autoStoppedFile = file;
            m_autoStoppedId = id;
        }
    }
}

QString MockProfiler::finish(QString *error)
{
    Window w = std::move(*m_window);
    m_window.reset();
    const QDir dir(w.outputDir);
    if (!QDir().mkpath(dir.absolutePath())) {
        *error = QStringLiteral("cannot create %1").arg(dir.absolutePath());
        return {};
    }
    const QString stamp = QString::number(QDateTime::currentMSecsSinceEpoch());
    QString name;
    switch (m_cfg.flavor) {
    case Flavor::Trtllm:
        name = QStringLiteral("trtllm-trace-%1-rank-0.json").arg(w.id);
        break;
    case Flavor::Sglang:
        name = (w.prefix.isEmpty() ? QString() : w.prefix + QLatin1Char('-'))
               + QStringLiteral("%1-%2-TP-0.trace.json").arg(stamp).arg(w.id);
        break;
    case Flavor::Vllm:
    case Flavor::Openai:
    case Flavor::Llamacpp:
        name = QStringLiteral("sweepbench-mock-vllm.%1.%2.pt.trace.json").arg(stamp).arg(w.id);
        break;
    }
    const QString path = dir.absoluteFilePath(name);

    QJsonArray events;
    events.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("process_name")},
                              {QStringLiteral("ph"), QStringLiteral("M")},
                              {QStringLiteral("pid"), 1}, {QStringLiteral("tid"), 1},
                              {QStringLiteral("args"), QJsonObject{{QStringLiteral("name"),
                                   QStringLiteral("sweepbench mock %1").arg(toString(m_cfg.flavor))}}}});
    events.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("thread_name")},
                              {QStringLiteral("ph"), QStringLiteral("M")},
                              {QStringLiteral("pid"), 1}, {QStringLiteral("tid"), 1},
                              {QStringLiteral("args"), QJsonObject{{QStringLiteral("name"), QStringLiteral("scheduler")}}}});
    const bool vllm = m_cfg.flavor != Flavor::Trtllm && m_cfg.flavor != Flavor::Sglang;
    for (const MockStepRecord &s : w.steps) {
        // Each step under the name the real server gives it (trace/StepLabels.h): vLLM's step
        // annotation, TensorRT-LLM's and SGLang's step scope.
        const int decodeSeqs = std::max(0, s.batch - s.prefillSeqs);
        const QString name = vllm ? QStringLiteral("execute_context_%1(%2)_generation_%3(%4)")
                                        .arg(s.prefillSeqs)
                                        .arg(s.prefillTokens)
                                        .arg(decodeSeqs)
                                        .arg(s.decodeTokens)
                             : s.prefillSeqs > 0 ? QStringLiteral("step[EXTEND bs=%1 toks=%2]").arg(s.batch).arg(s.prefillTokens + s.decodeTokens)
                                                 : QStringLiteral("step[DECODE bs=%1]").arg(s.batch);
        events.append(QJsonObject{
            {QStringLiteral("name"), name}, {QStringLiteral("cat"), QStringLiteral("user_annotation")},
            {QStringLiteral("ph"), QStringLiteral("X")},
            {QStringLiteral("ts"), double(s.startNs) / 1000.0},
            {QStringLiteral("dur"), double(s.endNs - s.startNs) / 1000.0},
            {QStringLiteral("pid"), 1}, {QStringLiteral("tid"), 1},
            {QStringLiteral("args"), QJsonObject{{QStringLiteral("step"), qint64(s.index)},
                                                 {QStringLiteral("batch_size"), s.batch},
                                                 {QStringLiteral("prefill_sequences"), s.prefillSeqs},
                                                 {QStringLiteral("prefill_tokens"), s.prefillTokens},
                                                 {QStringLiteral("cached_prefill_tokens"), s.cachedTokens},
                                                 {QStringLiteral("decode_tokens"), s.decodeTokens}}}});
    }
    QJsonArray activities;
    for (const QString &a : w.activities)
        activities.append(a);
    QJsonObject root{{QStringLiteral("traceEvents"), events},
                           {QStringLiteral("displayTimeUnit"), QStringLiteral("ms")},
                           {QStringLiteral("otherData"),
                            QJsonObject{{QStringLiteral("profile_id"), w.id},
                                        {QStringLiteral("flavor"), toString(m_cfg.flavor)},
                                        {QStringLiteral("activities"), activities},
                                        {QStringLiteral("steps"), qint64(w.steps.size())}}}};
    if (vllm) { // what vLLM's torch profiler puts at the top of each rank's trace
        root.insert(QStringLiteral("vllm_version"), QStringLiteral("sweepbench-mock"));
        root.insert(QStringLiteral("host_name"), QSysInfo::machineHostName());
        root.insert(QStringLiteral("distributedInfo"), QJsonObject{{QStringLiteral("rank"), 0}, {QStringLiteral("world_size"), 1}});
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(root).toJson(QJsonDocument::Compact)) < 0
        || !f.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return {};
    }
    m_written << path;
    return path;
}

} // namespace sb
