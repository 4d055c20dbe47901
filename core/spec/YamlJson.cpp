#include "spec/YamlJson.h"
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <charconv>
#include <cmath>

namespace sb::yaml {

ScalarKind classifyPlain(const QString &text)
{
    static const QRegularExpression intRe(QStringLiteral("^[-+]?[0-9]+$"));
    static const QRegularExpression floatRe(QStringLiteral("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"));
    static const QRegularExpression specialRe(QStringLiteral("^[-+]?\\.(inf|Inf|INF)$|^\\.(nan|NaN|NAN)$"));
    if (text.isEmpty() || text == QLatin1String("~") || text.compare(QLatin1String("null"), Qt::CaseInsensitive) == 0)
        return ScalarKind::Null;
    const QString lower = text.toLower();
    if (lower == QLatin1String("true") || lower == QLatin1String("false") || lower == QLatin1String("yes")
        || lower == QLatin1String("no") || lower == QLatin1String("on") || lower == QLatin1String("off"))
        return ScalarKind::Bool;
    if (intRe.match(text).hasMatch())
        return ScalarKind::Int;
    if (floatRe.match(text).hasMatch() || specialRe.match(text).hasMatch())
        return ScalarKind::Float;
    return ScalarKind::String;
}

QJsonValue toJson(Context &ctx, const YAML::Node &node, const QString &path, int depth)
{
    if ((node.IsMap() || node.IsSequence()) && depth >= spec::kMaxJsonDepth) {
        ctx.error(toPos(node.Mark()), path, spec::tooDeepJson());
        return QJsonValue(QJsonValue::Null);
    }
    if (node.IsMap()) {
        QJsonObject obj;
        for (const auto &kv : node) {
            const YAML::Node &k = kv.first;
            const QString keyPath = childPath(path, scalarText(k));
            if (!k.IsScalar()) {
                ctx.error(toPos(k.Mark()), path, QStringLiteral("expected a plain key, got %1").arg(describe(k)));
                continue;
            }
            if (obj.contains(scalarText(k))) {
                ctx.error(toPos(k.Mark()), keyPath, QStringLiteral("duplicate key"));
                continue;
            }
            ctx.remember(keyPath, toPos(k.Mark()));
            obj.insert(scalarText(k), toJson(ctx, kv.second, keyPath, depth + 1));
        }
        return obj;
    }
    if (node.IsSequence()) {
        QJsonArray arr;
        int i = 0;
        for (const auto &item : node) {
            arr.append(toJson(ctx, item, indexPath(path, i), depth + 1));
            ++i;
        }
        return arr;
    }
    if (!node.IsScalar())
        return QJsonValue(QJsonValue::Null);
    const QString text = scalarText(node);
    if (node.Tag() == "!") // quoted
        return text;
    switch (classifyPlain(text)) {
    case ScalarKind::Null:
        return QJsonValue(QJsonValue::Null);
    case ScalarKind::Bool: {
        bool b = false;
        parseBool(node, b);
        return b;
    }
    case ScalarKind::Int:
    case ScalarKind::Float: {
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (ok && std::isfinite(v))
            return v;
        return text; // .inf / .nan have no JSON form; keep the text
    }
    case ScalarKind::String:
        break;
    }
    return text;
}

void emitString(YAML::Emitter &out, const QString &s)
{
    const std::string utf8 = s.toStdString();
    // Multi-line text is double-quoted too: a literal block would gain a trailing newline.
    if (classifyPlain(s) != ScalarKind::String || s.contains(QLatin1Char('\n')))
        out << YAML::DoubleQuoted << utf8;
    else
        out << utf8; // yaml-cpp quotes on its own when the text is not a valid plain scalar
}

std::string formatNumber(double v)
{
    // Integral values print as integers so counts stay readable (1e8 would be "1e+08").
    if (std::abs(v) < 9.0e15 && v == std::floor(v))
        return std::to_string(static_cast<long long>(v));
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

void emitJson(YAML::Emitter &out, const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out << YAML::Null;
        break;
    case QJsonValue::Bool:
        out << (value.toBool() ? "true" : "false");
        break;
    case QJsonValue::Double:
        out << formatNumber(value.toDouble());
        break;
    case QJsonValue::String:
        emitString(out, value.toString());
        break;
    case QJsonValue::Array: {
        const QJsonArray arr = value.toArray();
        out << YAML::BeginSeq;
        for (const QJsonValue &v : arr)
            emitJson(out, v);
        out << YAML::EndSeq;
        break;
    }
    case QJsonValue::Object: {
        const QJsonObject obj = value.toObject();
        out << YAML::BeginMap;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            out << YAML::Key;
            emitString(out, it.key());
            out << YAML::Value;
            emitJson(out, it.value());
        }
        out << YAML::EndMap;
        break;
    }
    }
}

} // namespace sb::yaml
