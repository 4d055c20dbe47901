#include "trace/TraceReader.h"
#include "trace/TraceInput.h"
#include <QHash>
#include <charconv>
#include <limits>
#include <string>
#include <vector>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

namespace sb {

namespace {
// The event members read; everything else (args, flow ids, ...) is skipped unparsed by the sink.
enum class Field { Other, Ph, Name, Cat, Pid, Tid, Ts, Dur };
// The top-level members read in the object form.
enum class RootKey { Other, Events, Version, Host, DistributedInfo };

Field fieldOf(std::string_view k)
{
    if (k == "ph")
        return Field::Ph;
    if (k == "name")
        return Field::Name;
    if (k == "cat")
        return Field::Cat;
    if (k == "pid")
        return Field::Pid;
    if (k == "tid")
        return Field::Tid;
    if (k == "ts")
        return Field::Ts;
    if (k == "dur")
        return Field::Dur;
    return Field::Other;
}

RootKey rootKeyOf(std::string_view k)
{
    if (k == "traceEvents")
        return RootKey::Events;
    if (k == "vllm_version")
        return RootKey::Version;
    if (k == "host_name")
        return RootKey::Host;
    if (k == "distributedInfo")
        return RootKey::DistributedInfo;
    return RootKey::Other;
}

bool parseNumber(std::string_view s, double *out)
{
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    return ec == std::errc() && end == s.data() + s.size() && std::isfinite(*out);
}

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler>
{
public:
    Handler(TraceInput &in, TraceEventSink &sink, const TraceLimits &limits, TraceReadResult &result)
        : m_in(in), m_sink(sink), m_limits(limits), m_result(result)
    {
    }

    QString error; // ours, when a handler call returned false

    bool StartObject() { return open(true); }
    bool StartArray() { return open(false); }
    bool EndObject(rapidjson::SizeType)
    {
        m_in.markToken();
        --m_depth;
        if (m_inEvent && m_depth == m_eventsDepth) {
            m_inEvent = false;
            return emitEvent();
        }
        if (m_depth == 1)
            m_inDistributed = false;
        return true;
    }
    bool EndArray(rapidjson::SizeType)
    {
        m_in.markToken();
        --m_depth;
        if (m_depth < m_eventsDepth)
            m_eventsDepth = -1; // the events array ended
        return true;
    }
    bool Key(const char *s, rapidjson::SizeType n, bool)
    {
        m_in.markToken();
        const std::string_view k(s, n);
        if (m_inEvent && m_depth == m_eventsDepth + 1)
            m_field = fieldOf(k);
        else if (m_objectRoot && m_depth == 1)
            m_rootKey = rootKeyOf(k);
        else if (m_inDistributed && m_depth == 2)
            m_distKey = k == "rank" ? 1 : k == "world_size" ? 2 : 0;
        return true;
    }
    bool String(const char *s, rapidjson::SizeType n, bool)
    {
        m_in.markToken();
        const std::string_view v(s, n);
        if (atEventField()) {
            switch (m_field) {
            case Field::Ph:
                m_event.ph = n > 0 ? s[0] : 0;
                break;
            case Field::Name:
                m_name.assign(v);
                break;
            case Field::Cat:
                m_cat.assign(v);
                break;
            case Field::Pid:
                m_event.pid = qint64(qHash(QByteArrayView(s, n)));
                break;
            case Field::Tid:
                m_event.tid = qint64(qHash(QByteArrayView(s, n)));
                break;
            case Field::Ts:
            case Field::Dur:
                return notANumber();
            case Field::Other:
                break;
            }
        } else if (m_objectRoot && m_depth == 1) {
            if (m_rootKey == RootKey::Version)
                m_result.meta.version = QString::fromUtf8(s, qsizetype(std::min<std::size_t>(n, 100)));
            else if (m_rootKey == RootKey::Host)
                m_result.meta.hostName = QString::fromUtf8(s, qsizetype(std::min<std::size_t>(n, 255)));
        } else if (m_depth == 0) {
            return notATrace();
        }
        return true;
    }
    bool RawNumber(const char *s, rapidjson::SizeType n, bool)
    {
        m_in.markToken();
        const std::string_view v(s, n);
        if (atEventField()) {
            double d = 0;
            switch (m_field) {
            case Field::Ts:
            case Field::Dur:
                if (!parseNumber(v, &d))
                    return notANumber();
                (m_field == Field::Ts ? m_event.ts : m_event.dur) = d;
                break;
            case Field::Pid:
            case Field::Tid:
                // Out-of-range ids are still ids: kept by their hash, never converted with overflow.
                if (!parseNumber(v, &d) || std::abs(d) > 9e15 || d != std::floor(d))
                    d = double(qHash(QByteArrayView(s, n)) & 0xffffffffffff);
                (m_field == Field::Pid ? m_event.pid : m_event.tid) = qint64(d);
                break;
            default:
                break;
            }
        } else if (m_inDistributed && m_depth == 2 && m_distKey != 0) {
            double d = -1;
            if (parseNumber(v, &d) && d >= 0 && d <= m_limits.maxRank && d == std::floor(d))
                (m_distKey == 1 ? m_result.meta.rank : m_result.meta.worldSize) = int(d);
        } else if (m_depth == 0) {
            return notATrace();
        }
        return true;
    }
    bool Null() { return scalar(); }
    bool Bool(bool) { return scalar(); }

private:
    bool atEventField() const { return m_inEvent && m_depth == m_eventsDepth + 1; }
    bool scalar()
    {
        m_in.markToken();
        if (atEventField() && (m_field == Field::Ts || m_field == Field::Dur))
            return notANumber();
        if (m_depth == 0)
            return notATrace();
        return true;
    }
    bool open(bool object)
    {
        m_in.markToken();
        if (atEventField() && (m_field == Field::Ts || m_field == Field::Dur))
            return notANumber();
        if (m_depth >= m_limits.maxDepth)
            return stop(QStringLiteral("nested deeper than %1 objects and arrays").arg(m_limits.maxDepth));
        if (m_depth == 0) {
            m_objectRoot = object;
            if (!object)
                m_eventsDepth = 1, m_sawEvents = true; // the bare array form: the root is the events array
        } else if (m_objectRoot && m_depth == 1) {
            if (!object && m_rootKey == RootKey::Events)
                m_eventsDepth = 2, m_sawEvents = true;
            m_inDistributed = object && m_rootKey == RootKey::DistributedInfo;
        } else if (m_depth == m_eventsDepth) {
            if (!object)
                return stop(QStringLiteral("traceEvents[%1] is an array, not an event object").arg(m_result.events));
            m_inEvent = true;
            m_event = TraceEvent();
            m_name.clear();
            m_cat.clear();
            m_field = Field::Other;
        }
        ++m_depth;
        return true;
    }
    bool emitEvent()
    {
        if (m_result.events >= m_limits.maxEvents)
            return stop(QStringLiteral("more than %1 events (the cap on a trace)").arg(m_limits.maxEvents));
        m_event.name = m_name;
        m_event.cat = m_cat;
        ++m_result.events;
        QString why;
        if (!m_sink.event(m_event, &why))
            return stop(why);
        return true;
    }
    bool notANumber()
    {
        const char *key = m_field == Field::Ts ? "ts" : "dur";
        return stop(QStringLiteral("event %1: \"%2\" is not a number").arg(m_result.events).arg(QLatin1String(key)));
    }
    bool notATrace() { return stop(QStringLiteral("not a trace: expected an object with \"traceEvents\" or an array of events")); }
    bool stop(const QString &why)
    {
        if (error.isEmpty())
            error = why;
        return false;
    }

public:
    bool sawEvents() const { return m_sawEvents; }

private:

    TraceInput &m_in;
    TraceEventSink &m_sink;
    const TraceLimits &m_limits;
    TraceReadResult &m_result;
    int m_depth = 0;
    int m_eventsDepth = -1;
    bool m_objectRoot = false;
    bool m_sawEvents = false;
    bool m_inEvent = false;
    bool m_inDistributed = false;
    int m_distKey = 0;
    RootKey m_rootKey = RootKey::Other;
    Field m_field = Field::Other;
    TraceEvent m_event;
    std::string m_name, m_cat;
};

TraceReadResult readFrom(TraceInput &in, TraceEventSink &sink, const TraceLimits &limits)
{
    TraceReadResult result;
    Handler handler(in, sink, limits, result);
    rapidjson::Reader reader;
    // The recursive parser, not kParseIterativeFlag: RapidJSON 1.1.0's iterative parser pops its
    // empty (null) stack when a handler stops it (UBSan, found by fuzz_trace). Recursion stays
    // shallow: the handler refuses to open past limits.maxDepth before the parser descends.
    constexpr unsigned kFlags = rapidjson::kParseNumbersAsStringsFlag;
    const rapidjson::ParseResult ok = reader.Parse<kFlags>(in, handler);
    result.bytes = in.uncompressedBytes();
    result.gzip = in.gzip();
    const QString at = QStringLiteral("byte %1: ").arg(ok.IsError() ? qint64(ok.Offset()) : result.bytes);
    if (!handler.error.isEmpty())
        result.error = at + handler.error;
    else if (!in.error().isEmpty()) // the stream ended early: its reason, not the parser's view of the cut
        result.error = at + in.error();
    else if (ok.IsError() && result.bytes == 0)
        result.error = at + QStringLiteral("the file is empty");
    else if (ok.IsError()) // at the very end: the text stopped mid-document
        result.error = at + QStringLiteral("%1 (after %2 events%3)")
                                .arg(QString::fromLatin1(rapidjson::GetParseError_En(ok.Code())))
                                .arg(result.events)
                                .arg(qint64(ok.Offset()) >= result.bytes ? QStringLiteral("; a trace cut short ends like this") : QString());
    else if (!handler.sawEvents())
        result.error = at + QStringLiteral("no \"traceEvents\" array");
    return result;
}
} // namespace

TraceReadResult readTraceFile(const QString &path, TraceEventSink &sink, const TraceLimits &limits, const std::atomic<bool> *cancel,
                              std::atomic<qint64> *rawBytesRead)
{
    TraceInput in(limits, cancel, rawBytesRead);
    TraceReadResult result;
    if (QString error; !in.openFile(path, &error)) {
        result.error = error;
        return result;
    }
    return readFrom(in, sink, limits);
}

TraceReadResult readTraceData(const QByteArray &data, TraceEventSink &sink, const TraceLimits &limits, const std::atomic<bool> *cancel)
{
    TraceInput in(limits, cancel);
    in.openBuffer(data);
    return readFrom(in, sink, limits);
}

} // namespace sb
