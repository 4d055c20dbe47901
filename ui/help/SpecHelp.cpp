#include "help/SpecHelp.h"
#include "style/Theme.h"
#include <QFile>
#include <QRegularExpression>
#include <QStringList>

namespace sb::ui {

namespace {

// The table under a heading lists keys of this mapping: the heading's first `code` names it.
// Tables whose keys are not spec keys a user writes (server_info is what results record) have
// none.
std::optional<QString> mappingOf(const QString &heading)
{
    // The telemetry and cost table names its keys whole (`telemetry[].url`, `cost.gpu_hour`);
    // the designer binds them at the top level.
    if (heading.contains(QLatin1String("Top level")) || heading.contains(QLatin1String("Telemetry and cost")))
        return QStringLiteral("spec:");
    static const QRegularExpression code(QStringLiteral("`([a-z_.\\[\\]]+)`"));
    const auto m = code.match(heading);
    if (!m.hasMatch())
        return std::nullopt;
    const QString name = m.captured(1);
    if (name == QLatin1String("servers[]"))
        return QStringLiteral("server:");
    if (name == QLatin1String("server_info"))
        return std::nullopt;
    if (name.startsWith(QLatin1String("workload")) || name.startsWith(QLatin1String("sweep")))
        return QStringLiteral("spec:") + name + QLatin1Char('.');
    return QStringLiteral("server:") + name + QLatin1Char('.'); // launch, reset_kv_cache, server_profiler, metrics
}

// Markdown of one cell as HTML: escaped, `code` kept as code, **bold** and links as their text.
QString cellHtml(QString md)
{
    static const QRegularExpression link(QStringLiteral("\\[([^\\]]*)\\]\\([^)]*\\)"));
    md.replace(link, QStringLiteral("\\1"));
    md.remove(QStringLiteral("**"));
    QString html = md.toHtmlEscaped();
    static const QRegularExpression code(QStringLiteral("`([^`]*)`"));
    html.replace(code, QStringLiteral("<code>\\1</code>"));
    return html.trimmed();
}

QStringList cells(const QString &row)
{
    QString r = row.trimmed();
    r.replace(QLatin1String("\\|"), QStringLiteral("\x01")); // an escaped bar inside a cell
    QStringList out = r.mid(1, r.size() - 2).split(QLatin1Char('|'));
    for (QString &c : out)
        c = c.replace(QLatin1Char('\x01'), QLatin1Char('|')).trimmed();
    return out;
}

} // namespace

SpecHelp SpecHelp::fromMarkdown(const QString &markdown)
{
    SpecHelp help;
    std::optional<QString> mapping;
    bool inTable = false;
    static const QRegularExpression keyCell(QStringLiteral("^`([a-z_.\\[\\]]+)`$"));
    for (const QString &line : markdown.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1Char('#'))) {
            mapping = mappingOf(line);
            inTable = false;
            continue;
        }
        if (line.startsWith(QLatin1String("| key | type | default | meaning"))) {
            inTable = mapping.has_value();
            continue;
        }
        if (!inTable || !line.startsWith(QLatin1Char('|'))) {
            inTable = inTable && line.startsWith(QLatin1Char('|'));
            continue;
        }
        const QStringList c = cells(line);
        const auto key = keyCell.match(c.value(0));
        if (c.size() < 4 || !key.hasMatch())
            continue; // the |---| rule, or a row of several keys
        help.m_entries.insert(*mapping + key.captured(1), Entry{cellHtml(c[1]), cellHtml(c[2]), cellHtml(c[3])});
    }
    return help;
}

const SpecHelp &SpecHelp::bundled()
{
    static const SpecHelp help = [] {
        initResources(); // the bundle lives in a static library
        QFile f(QStringLiteral(":/docs/docs/spec-reference.md"));
        return f.open(QIODevice::ReadOnly) ? fromMarkdown(QString::fromUtf8(f.readAll())) : SpecHelp();
    }();
    return help;
}

QString SpecHelp::whatsThis(Scope scope, const QString &key) const
{
    const QString ns = scope == Scope::Spec ? QStringLiteral("spec:") : QStringLiteral("server:");
    auto it = m_entries.constFind(ns + key);
    if (it == m_entries.cend() && scope == Scope::Spec) // the form binds a few sweep keys by their own name
        it = m_entries.constFind(ns + QStringLiteral("sweep.") + key);
    if (it == m_entries.cend())
        return {};
    QString html = QStringLiteral("<p><code><b>%1</b></code></p><p>%2</p>").arg(key.toHtmlEscaped(), it->meaning);
    html += QStringLiteral("<p><i>%1</i> %2 &nbsp; <i>%3</i> %4</p>")
                .arg(QObject::tr("Type:"), it->type, QObject::tr("Default:"), it->defaultValue);
    return html + QObject::tr("<p>From the spec reference (Help › User guide).</p>");
}

} // namespace sb::ui
