#include "spec/YamlReader.h"
#include "spec/KeySuggest.h"
#include <QRegularExpression>
#include <cmath>
#include <limits>

namespace sb::yaml {

SourcePos toPos(const YAML::Mark &mark)
{
    if (mark.is_null() || mark.line < 0)
        return {};
    return {mark.line + 1, mark.column + 1};
}

QString childPath(const QString &parent, const QString &key)
{
    return parent.isEmpty() ? key : parent + QLatin1Char('.') + key;
}

QString indexPath(const QString &parent, int index)
{
    return parent + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

namespace {
SpecDiagnostic make(SpecDiagnostic::Severity sev, const QString &file, SourcePos pos, const QString &keyPath, const QString &message)
{
    SpecDiagnostic d;
    d.severity = sev;
    d.file = file;
    d.line = pos.line;
    d.column = pos.column;
    d.keyPath = keyPath;
    d.message = message;
    return d;
}

// Strips the last ".key" or "[i]" component; empty at the root.
QString parentPath(const QString &path)
{
    const qsizetype cut = std::max(path.lastIndexOf(QLatin1Char('.')), path.lastIndexOf(QLatin1Char('[')));
    return cut <= 0 ? QString() : path.left(cut);
}

bool isAncestorOrSelf(const QString &ancestor, const QString &path)
{
    if (ancestor.isEmpty() || ancestor == path)
        return true;
    if (!path.startsWith(ancestor))
        return false;
    const QChar next = path.at(ancestor.size());
    return next == QLatin1Char('.') || next == QLatin1Char('[');
}
} // namespace

void Context::error(SourcePos pos, const QString &keyPath, const QString &message)
{
    m_diags.append(make(SpecDiagnostic::Severity::Error, m_file, pos, keyPath, message));
    m_errorPaths.append(keyPath);
}

void Context::warning(SourcePos pos, const QString &keyPath, const QString &message)
{
    m_diags.append(make(SpecDiagnostic::Severity::Warning, m_file, pos, keyPath, message));
}

SourcePos Context::locate(const QString &keyPath) const
{
    for (QString p = keyPath;; p = parentPath(p)) {
        const auto it = m_positions.constFind(p);
        if (it != m_positions.constEnd())
            return *it;
        if (p.isEmpty())
            return {};
    }
}

bool Context::coveredByError(const QString &keyPath) const
{
    for (const QString &e : m_errorPaths)
        if (isAncestorOrSelf(e, keyPath))
            return true;
    return false;
}

SourcePos valuePos(const Context &ctx, const YAML::Node &node, const QString &path)
{
    const SourcePos pos = toPos(node.Mark());
    return node.IsNull() || pos.line == 0 ? ctx.locate(path) : pos;
}

QString scalarText(const YAML::Node &node)
{
    return QString::fromStdString(node.Scalar());
}

bool isNullScalar(const YAML::Node &node)
{
    if (node.IsNull())
        return true;
    if (!node.IsScalar() || node.Tag() == "!") // "!" = quoted: always a string
        return false;
    const std::string &s = node.Scalar();
    return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

QString describe(const YAML::Node &node)
{
    if (node.IsMap())
        return QStringLiteral("a mapping");
    if (node.IsSequence())
        return QStringLiteral("a list");
    if (isNullScalar(node))
        return QStringLiteral("an empty value");
    QString text = scalarText(node);
    if (text.size() > 60)
        text = text.left(57) + QStringLiteral("...");
    return QLatin1Char('\'') + text + QLatin1Char('\'');
}

namespace {
void typeError(Context &ctx, const YAML::Node &node, const QString &path, const QString &what)
{
    ctx.error(valuePos(ctx, node, path), path, QStringLiteral("expected %1, got %2").arg(what, describe(node)));
}
} // namespace

bool readString(Context &ctx, const YAML::Node &node, const QString &path, QString &out)
{
    // Any scalar is text (a model called 7 is fine); only null, lists and mappings are not.
    if (!node.IsScalar() || isNullScalar(node)) {
        typeError(ctx, node, path, QStringLiteral("a string"));
        return false;
    }
    out = scalarText(node);
    return true;
}

bool parseBool(const YAML::Node &node, bool &out)
{
    if (!node.IsScalar() || node.Tag() == "!")
        return false;
    // YAML 1.1 booleans, as yaml-cpp itself reads them; case-insensitive.
    const QString s = scalarText(node).toLower();
    static const QStringList yes = {QStringLiteral("true"), QStringLiteral("yes"), QStringLiteral("on")};
    static const QStringList no = {QStringLiteral("false"), QStringLiteral("no"), QStringLiteral("off")};
    if (yes.contains(s))
        out = true;
    else if (no.contains(s))
        out = false;
    else
        return false;
    return true;
}

bool readBool(Context &ctx, const YAML::Node &node, const QString &path, bool &out)
{
    if (!parseBool(node, out)) {
        typeError(ctx, node, path, QStringLiteral("true or false"));
        return false;
    }
    return true;
}

bool readInt(Context &ctx, const YAML::Node &node, const QString &path, int &out, const QString &what)
{
    static const QRegularExpression intRe(QStringLiteral("^[-+]?[0-9]+$"));
    if (node.IsScalar() && intRe.match(scalarText(node)).hasMatch()) {
        bool ok = false;
        const qlonglong v = scalarText(node).toLongLong(&ok);
        if (ok && v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max()) {
            out = int(v);
            return true;
        }
    }
    typeError(ctx, node, path, what);
    return false;
}

bool readNumber(Context &ctx, const YAML::Node &node, const QString &path, double &out, const QString &what)
{
    static const QRegularExpression numRe(QStringLiteral("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"));
    if (node.IsScalar() && numRe.match(scalarText(node)).hasMatch()) {
        bool ok = false;
        const double v = scalarText(node).toDouble(&ok);
        if (ok && std::isfinite(v)) {
            out = v;
            return true;
        }
    }
    typeError(ctx, node, path, what);
    return false;
}

MapReader::MapReader(Context &ctx, const YAML::Node &map, QString path, QStringList known, const Hint &elsewhere)
    : m_ctx(ctx), m_path(std::move(path))
{
    QHash<QString, SourcePos> seen;
    // Range-for binds each pair to a const reference that lives for the iteration
    // (`it->first` would dangle: the iterator's operator-> returns a temporary proxy).
    for (const auto &kv : map) {
        const YAML::Node &keyNode = kv.first;
        const YAML::Node &value = kv.second;
        const SourcePos pos = toPos(keyNode.Mark());
        if (!keyNode.IsScalar()) {
            ctx.error(pos, m_path, QStringLiteral("expected a plain key, got %1").arg(describe(keyNode)));
            continue;
        }
        const QString key = scalarText(keyNode);
        const QString keyPath = childPath(m_path, key);
        if (const auto prev = seen.constFind(key); prev != seen.constEnd()) {
            ctx.error(pos, keyPath, QStringLiteral("duplicate key; first given at line %1").arg(prev->line));
            continue;
        }
        seen.insert(key, pos);
        if (!known.contains(key)) {
            QString msg = QStringLiteral("unknown key");
            const QString near = closestMatch(key, known);
            const QString hint = elsewhere ? elsewhere(key) : QString();
            if (!near.isEmpty())
                msg += QStringLiteral("; did you mean '%1'?").arg(near);
            else if (!hint.isEmpty())
                msg += QStringLiteral("; ") + hint;
            else
                msg += QStringLiteral("; expected one of: ") + known.join(QStringLiteral(", "));
            ctx.error(pos, keyPath, msg);
            continue;
        }
        // Scalars are pointed at by their value (same line); blocks by their key.
        ctx.remember(keyPath, value.IsScalar() ? toPos(value.Mark()) : pos);
        m_entries.push_back({key, pos, value});
    }
}

const YAML::Node *MapReader::find(const QString &key) const
{
    for (const Entry &e : m_entries)
        if (e.key == key)
            return &e.value;
    return nullptr;
}

SourcePos MapReader::keyPos(const QString &key) const
{
    for (const Entry &e : m_entries)
        if (e.key == key)
            return e.keyPos;
    return m_ctx.locate(m_path);
}

void MapReader::string(const QString &key, QString &out) const
{
    if (const YAML::Node *n = find(key))
        readString(m_ctx, *n, path(key), out);
}

void MapReader::boolean(const QString &key, bool &out) const
{
    if (const YAML::Node *n = find(key))
        readBool(m_ctx, *n, path(key), out);
}

void MapReader::integer(const QString &key, int &out, const QString &what) const
{
    if (const YAML::Node *n = find(key))
        readInt(m_ctx, *n, path(key), out, what);
}

void MapReader::number(const QString &key, double &out, const QString &what) const
{
    if (const YAML::Node *n = find(key))
        readNumber(m_ctx, *n, path(key), out, what);
}

} // namespace sb::yaml
