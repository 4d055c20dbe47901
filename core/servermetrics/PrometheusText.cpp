#include "servermetrics/PrometheusText.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <charconv>
#include <cmath>
#include <limits>

namespace sb {

QByteArray labelValue(const MetricSample &s, const char *name)
{
    for (const auto &l : s.labels)
        if (l.first == name)
            return l.second;
    return {};
}

std::optional<MetricType> metricTypeFromName(const QByteArray &name)
{
    for (MetricType t : {MetricType::Counter, MetricType::Gauge, MetricType::Histogram, MetricType::Summary, MetricType::Untyped})
        if (name == metricTypeName(t))
            return t;
    if (name == "unknown") // OpenMetrics' word for untyped
        return MetricType::Untyped;
    return std::nullopt;
}

namespace {
bool isNameStart(char c, bool colon) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':'); }
bool isNameChar(char c, bool colon) { return isNameStart(c, colon) || (c >= '0' && c <= '9'); }
bool isBlank(char c) { return c == ' ' || c == '\t'; }

// A cursor over one line; every read checks the end.
struct Cursor {
    const char *p;
    const char *end;
    bool atEnd() const { return p >= end; }
    void skipBlanks() { while (p < end && isBlank(*p)) ++p; }
    bool name(QByteArray *out, bool colon)
    {
        const char *start = p;
        if (atEnd() || !isNameStart(*p, colon))
            return false;
        while (p < end && isNameChar(*p, colon))
            ++p;
        *out = QByteArray(start, qsizetype(p - start));
        return true;
    }
    QByteArray token()
    {
        const char *start = p;
        while (p < end && !isBlank(*p))
            ++p;
        return QByteArray(start, qsizetype(p - start));
    }
};

// Label values escape \\, \" and \n; HELP text escapes \\ and \n. Anything else after a
// backslash is kept as written (what Prometheus itself does).
bool quotedValue(Cursor &c, QByteArray *out, QString *why)
{
    if (c.atEnd() || *c.p != '"') {
        *why = QStringLiteral("a label value must be quoted");
        return false;
    }
    ++c.p;
    out->clear();
    while (c.p < c.end) {
        const char ch = *c.p++;
        if (ch == '"')
            return true;
        if (ch != '\\') {
            out->append(ch);
            continue;
        }
        if (c.atEnd())
            break;
        const char e = *c.p++;
        if (e == 'n')
            out->append('\n');
        else if (e == '\\' || e == '"')
            out->append(e);
        else {
            out->append('\\');
            out->append(e);
        }
    }
    *why = QStringLiteral("unterminated label value");
    return false;
}

QByteArray unescapeHelp(const QByteArray &s)
{
    QByteArray out;
    out.reserve(s.size());
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == 'n' || s[i + 1] == '\\')) {
            out.append(s[i + 1] == 'n' ? '\n' : '\\');
            ++i;
        } else {
            out.append(s[i]);
        }
    }
    return out;
}

bool parseLabels(Cursor &c, MetricSample *s, int maxLabels, QString *why)
{
    // c.p is just past '{'
    for (;;) {
        c.skipBlanks();
        if (c.atEnd()) {
            *why = QStringLiteral("unterminated label set");
            return false;
        }
        if (*c.p == '}') {
            ++c.p;
            return true;
        }
        QByteArray label;
        if (!c.name(&label, false)) {
            *why = QStringLiteral("bad label name");
            return false;
        }
        c.skipBlanks();
        if (c.atEnd() || *c.p != '=') {
            *why = QStringLiteral("label %1 without '='").arg(QString::fromLatin1(label));
            return false;
        }
        ++c.p;
        c.skipBlanks();
        QByteArray value;
        if (!quotedValue(c, &value, why))
            return false;
        for (const auto &l : s->labels)
            if (l.first == label) {
                *why = QStringLiteral("label %1 given twice").arg(QString::fromLatin1(label));
                return false;
            }
        if (s->labels.size() >= maxLabels) {
            *why = QStringLiteral("more than %1 labels").arg(maxLabels);
            return false;
        }
        s->labels.append({label, value});
        c.skipBlanks();
        if (!c.atEnd() && *c.p == ',')
            ++c.p;
        else if (c.atEnd() || *c.p != '}') {
            *why = QStringLiteral("expected ',' or '}' after a label");
            return false;
        }
    }
}

bool parseSampleLine(Cursor c, MetricSample *s, int maxLabels, QString *why)
{
    if (!c.name(&s->name, true)) {
        *why = QStringLiteral("bad metric name");
        return false;
    }
    c.skipBlanks();
    if (!c.atEnd() && *c.p == '{') {
        ++c.p;
        if (!parseLabels(c, s, maxLabels, why))
            return false;
    }
    c.skipBlanks();
    const QByteArray value = c.token();
    if (!parseMetricValue(value, &s->value)) {
        *why = value.isEmpty() ? QStringLiteral("sample without a value") : QStringLiteral("bad value '%1'").arg(QString::fromLatin1(value.left(40)));
        return false;
    }
    c.skipBlanks();
    if (!c.atEnd()) {
        const QByteArray ts = c.token();
        qint64 ms = 0;
        const auto [ptr, ec] = std::from_chars(ts.constData(), ts.constData() + ts.size(), ms);
        if (ec != std::errc() || ptr != ts.constData() + ts.size()) {
            *why = QStringLiteral("bad timestamp '%1'").arg(QString::fromLatin1(ts.left(40)));
            return false;
        }
        s->timestampMs = ms;
        c.skipBlanks();
        if (!c.atEnd()) {
            *why = QStringLiteral("text after the timestamp");
            return false;
        }
    }
    return true;
}

void noteBad(MetricsScrape *out, int lineNo, const QString &why)
{
    if (out->badLines++ == 0)
        out->firstError = QStringLiteral("line %1: %2").arg(lineNo).arg(why);
}

void flattenJson(const QJsonObject &o, const QByteArray &prefix, int depth, int maxDepth, std::map<QByteArray, double> *into)
{
    if (depth > maxDepth)
        return;
    for (auto it = o.begin(); it != o.end(); ++it) {
        QByteArray key = it.key().toUtf8();
        for (char &ch : key)
            if (!isNameChar(ch, false))
                ch = '_';
        const QByteArray name = prefix.isEmpty() ? key : prefix + '_' + key;
        if (it->isDouble())
            (*into)[name] = it->toDouble();
        else if (it->isBool())
            (*into)[name] = it->toBool() ? 1 : 0;
        else if (it->isObject())
            flattenJson(it->toObject(), name, depth + 1, maxDepth, into);
    }
}
} // namespace

bool parseMetricValue(const QByteArray &text, double *out)
{
    if (text.isEmpty())
        return false;
    const QByteArray lower = text.toLower();
    if (lower == "nan") {
        *out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (lower == "+inf" || lower == "inf") {
        *out = std::numeric_limits<double>::infinity();
        return true;
    }
    if (lower == "-inf") {
        *out = -std::numeric_limits<double>::infinity();
        return true;
    }
    const char *b = text.constData();
    const char *e = b + text.size();
    const char *digits = b;
    if (*digits == '+' || *digits == '-')
        ++digits;
    if (digits == e || !((*digits >= '0' && *digits <= '9') || *digits == '.'))
        return false; // from_chars would take "infinity", "-nan" and friends; the format does not
    if (*b == '+')
        ++b; // from_chars takes no plus sign
    const auto [ptr, ec] = std::from_chars(b, e, *out);
    return ec == std::errc() && ptr == e;
}

QByteArray formatMetricValue(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "+Inf" : "-Inf";
    char buf[64];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? QByteArray(buf, qsizetype(ptr - buf)) : QByteArray::number(v, 'g', 17);
}

QByteArray seriesKey(const MetricSample &s)
{
    if (s.labels.isEmpty())
        return s.name;
    QByteArray k = s.name + '{';
    bool first = true;
    for (const auto &[name, value] : s.labels) {
        if (!first)
            k += ',';
        first = false;
        k += name + "=\"";
        for (char ch : value) {
            if (ch == '\\' || ch == '"')
                k += '\\';
            if (ch == '\n')
                k += "\\n";
            else
                k += ch;
        }
        k += '"';
    }
    return k + '}';
}

bool parseSeriesKey(const QByteArray &key, MetricSample *out)
{
    *out = MetricSample();
    Cursor c{key.constData(), key.constData() + key.size()};
    if (!c.name(&out->name, true))
        return false;
    QString why;
    if (!c.atEnd() && *c.p == '{') {
        ++c.p;
        if (!parseLabels(c, out, MetricsLimits().maxLabels, &why))
            return false;
    }
    return c.atEnd();
}

QByteArray MetricsScrape::familyOf(const QByteArray &sampleName) const
{
    if (families.count(sampleName))
        return sampleName;
    for (const char *suffix : {"_bucket", "_sum", "_count", "_total", "_created"}) {
        if (!sampleName.endsWith(suffix))
            continue;
        const QByteArray base = sampleName.chopped(qsizetype(qstrlen(suffix)));
        const auto it = families.find(base);
        if (it == families.end())
            continue;
        const MetricType t = it->second.type;
        const bool fits = QByteArray(suffix) == "_total" ? t == MetricType::Counter
                          : QByteArray(suffix) == "_bucket" ? t == MetricType::Histogram
                          : QByteArray(suffix) == "_created" ? t != MetricType::Gauge
                                                              : t == MetricType::Histogram || t == MetricType::Summary;
        if (fits)
            return base;
    }
    return sampleName;
}

MetricType MetricsScrape::typeOf(const QByteArray &sampleName) const
{
    const auto it = families.find(familyOf(sampleName));
    return it == families.end() ? MetricType::Untyped : it->second.type;
}

bool parsePrometheusText(const QByteArray &body, MetricsScrape *out, QString *error, const MetricsLimits &limits)
{
    *out = MetricsScrape();
    if (body.size() > limits.maxBodyBytes) {
        *error = QStringLiteral("metrics answer larger than %1 KiB").arg(limits.maxBodyBytes / 1024);
        return false;
    }
    const char *p = body.constData();
    const char *const end = p + body.size();
    int lineNo = 0;
    while (p < end) {
        const char *nl = static_cast<const char *>(memchr(p, '\n', std::size_t(end - p)));
        const char *lineEnd = nl ? nl : end;
        ++lineNo;
        Cursor c{p, lineEnd};
        p = nl ? nl + 1 : end;
        if (c.end > c.p && c.end[-1] == '\r')
            --c.end; // CRLF line ends
        if (c.end - c.p > limits.maxLineBytes) {
            noteBad(out, lineNo, QStringLiteral("line longer than %1 bytes").arg(limits.maxLineBytes));
            continue;
        }
        c.skipBlanks();
        if (c.atEnd())
            continue;
        if (*c.p == '#') {
            ++c.p;
            c.skipBlanks();
            const QByteArray word = c.token();
            if (word == "EOF")
                break;
            if (word != "HELP" && word != "TYPE")
                continue; // a comment
            c.skipBlanks();
            QByteArray name;
            if (!c.name(&name, true)) {
                noteBad(out, lineNo, QStringLiteral("# %1 without a metric name").arg(QString::fromLatin1(word)));
                continue;
            }
            if (!c.atEnd() && !isBlank(*c.p)) {
                noteBad(out, lineNo, QStringLiteral("bad metric name in # %1").arg(QString::fromLatin1(word)));
                continue;
            }
            c.skipBlanks();
            const bool known = out->families.count(name) > 0;
            if (!known && int(out->families.size()) >= limits.maxSeries) {
                out->truncated = true;
                continue;
            }
            MetricFamily &f = out->families[name];
            if (word == "HELP") {
                f.help = unescapeHelp(QByteArray(c.p, qsizetype(c.end - c.p)));
            } else {
                const QByteArray t = c.token();
                c.skipBlanks();
                const auto type = metricTypeFromName(t);
                if (!type || !c.atEnd()) {
                    noteBad(out, lineNo, QStringLiteral("unknown metric type '%1'").arg(QString::fromLatin1(t.left(40))));
                    continue;
                }
                f.type = *type;
            }
            continue;
        }
        MetricSample s;
        QString why;
        if (!parseSampleLine(c, &s, limits.maxLabels, &why)) {
            noteBad(out, lineNo, why);
            continue;
        }
        if (int(out->samples.size()) >= limits.maxSeries) {
            out->truncated = true;
            continue;
        }
        out->samples.push_back(std::move(s));
    }
    if (out->samples.empty()) {
        *error = out->firstError.isEmpty() ? QStringLiteral("no metric samples in the answer")
                                           : QStringLiteral("no valid metric samples in the answer (%1)").arg(out->firstError);
        return false;
    }
    return true;
}

bool parseTrtllmIterationStats(const QByteArray &body, MetricsScrape *out, QString *error, const MetricsLimits &limits)
{
    *out = MetricsScrape();
    out->json = true;
    if (body.size() > limits.maxBodyBytes) {
        *error = QStringLiteral("metrics answer larger than %1 KiB").arg(limits.maxBodyBytes / 1024);
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error = QStringLiteral("metrics answer is not valid JSON at offset %1: %2").arg(pe.offset).arg(pe.errorString());
        return false;
    }
    // trtllm-serve answers the iterations since the last read, oldest first (an empty array
    // when it was idle). Each numeric field becomes a gauge `trtllm:<path>` holding the newest
    // iteration's value, plus trtllm:iterations. A JSON object is some other route's answer
    // (an error, a catch-all handler), not metrics.
    if (!doc.isArray()) {
        *error = QStringLiteral("metrics answer is a JSON object, not trtllm-serve's array of iteration stats");
        return false;
    }
    const QJsonArray iterations = doc.array();
    std::map<QByteArray, double> newest;
    int objects = 0;
    for (const QJsonValue &v : iterations) {
        if (!v.isObject())
            continue;
        ++objects;
        flattenJson(v.toObject(), QByteArray(), 1, limits.maxJsonDepth, &newest);
    }
    if (objects == 0 && !iterations.isEmpty()) {
        *error = QStringLiteral("metrics answer is JSON but holds no iteration objects");
        return false;
    }
    auto add = [&](const QByteArray &name, double value) {
        if (int(out->samples.size()) >= limits.maxSeries) {
            out->truncated = true;
            return;
        }
        out->families[name].type = MetricType::Gauge;
        MetricSample s;
        s.name = name;
        s.value = value;
        out->samples.push_back(std::move(s));
    };
    add("trtllm:iterations", objects);
    for (const auto &[name, value] : newest)
        add("trtllm:" + name, value);
    return true;
}

bool parseMetricsAnswer(const QByteArray &body, MetricsScrape *out, QString *error, const MetricsLimits &limits)
{
    for (char ch : body) {
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
            continue;
        if (ch == '[' || ch == '{')
            return parseTrtllmIterationStats(body, out, error, limits);
        break;
    }
    return parsePrometheusText(body, out, error, limits);
}

} // namespace sb
