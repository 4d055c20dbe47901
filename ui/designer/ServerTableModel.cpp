#include "designer/ServerTableModel.h"
#include <QFileInfo>
#include <QBrush>
#include <QColor>
#include <QRegularExpression>

namespace sb::ui {

QString urlsText(const QStringList &urls)
{
    return urls.join(QStringLiteral(", "));
}

QStringList urlsFromText(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return text.split(separators, Qt::SkipEmptyParts);
}

QString targetText(const ServerSpec &s)
{
    return s.mock.isEmpty() ? urlsText(s.urls) : QStringLiteral("mock:") + s.mock;
}

void setTargetText(ServerSpec &s, const QString &text)
{
    const QString t = text.trimmed();
    if (t.startsWith(QLatin1String("mock:"))) {
        s.mock = t.mid(5).trimmed();
        s.urls.clear();
    } else {
        s.mock.clear();
        s.urls = urlsFromText(t);
    }
}

void ServerTableModel::setServers(const QList<ServerSpec> &servers)
{
    beginResetModel();
    m_servers = servers;
    m_errors.clear();
    endResetModel();
}

void ServerTableModel::setServer(int row, const ServerSpec &server)
{
    if (row < 0 || row >= m_servers.size())
        return;
    m_servers[row] = server;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    Q_EMIT serversEdited();
}

int ServerTableModel::addServer(const ServerSpec &server)
{
    const int row = int(m_servers.size());
    beginInsertRows({}, row, row);
    m_servers.append(server);
    endInsertRows();
    Q_EMIT serversEdited();
    return row;
}

int ServerTableModel::duplicateServer(int row)
{
    if (row < 0 || row >= m_servers.size())
        return -1;
    ServerSpec copy = m_servers.at(row);
    copy.name = uniqueName(copy.name);
    const int at = row + 1;
    beginInsertRows({}, at, at);
    m_servers.insert(at, copy);
    endInsertRows();
    m_errors.clear(); // row numbers shifted; the next validation pass refills them
    Q_EMIT serversEdited();
    return at;
}

void ServerTableModel::removeServer(int row)
{
    if (row < 0 || row >= m_servers.size())
        return;
    beginRemoveRows({}, row, row);
    m_servers.removeAt(row);
    endRemoveRows();
    m_errors.clear();
    Q_EMIT serversEdited();
}

void ServerTableModel::setRowErrors(const QHash<int, QHash<int, QString>> &errors)
{
    if (errors == m_errors)
        return;
    m_errors = errors;
    if (!m_servers.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::BackgroundRole, Qt::ToolTipRole, RowErrorRole});
}

QString ServerTableModel::uniqueName(const QString &base) const
{
    QString stem = base.isEmpty() ? QStringLiteral("server") : base;
    // "vllm-2" duplicates to "vllm-3", not "vllm-2-2".
    const int dash = int(stem.lastIndexOf(QLatin1Char('-')));
    if (dash > 0) {
        bool isNumber = false;
        stem.mid(dash + 1).toInt(&isNumber);
        if (isNumber)
            stem.truncate(dash);
    }
    auto taken = [this](const QString &n) {
        for (const auto &s : m_servers)
            if (s.name == n)
                return true;
        return false;
    };
    if (!taken(stem))
        return stem;
    for (int i = 2;; ++i) {
        const QString candidate = QStringLiteral("%1-%2").arg(stem).arg(i);
        if (!taken(candidate))
            return candidate;
    }
}

int ServerTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_servers.size());
}

int ServerTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

static QString hooksSummary(const ServerSpec &s)
{
    QStringList parts;
    if (s.reset.enabled)
        parts << QStringLiteral("reset");
    if (s.profiler.enabled)
        parts << QStringLiteral("profiler");
    return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral(" + "));
}

QVariant ServerTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ServerSpec &s = m_servers.at(index.row());
    const QString error = m_errors.value(index.row()).value(index.column());
    auto rowErrors = [&] {
        QStringList all;
        const auto &cells = m_errors.value(index.row());
        for (int c = 0; c < ColumnCount; ++c)
            if (!cells.value(c).isEmpty())
                all << cells.value(c);
        return all.join(QLatin1Char('\n'));
    };
    switch (role) {
    case SummaryRole: {
        // A launched server without a URL of its own is named by what it runs.
        const bool launchedOnly = s.launch.enabled && s.urls.isEmpty() && s.mock.isEmpty();
        QStringList parts{toString(s.flavor),
                          launchedOnly ? tr("launches %1").arg(QFileInfo(s.launch.command.value(0)).fileName()) : targetText(s)};
        if (!s.model.isEmpty())
            parts << s.model;
        return parts.join(QStringLiteral(" · "));
    }
    case RowErrorRole:
        return rowErrors();
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case Name: return s.name;
        case Target: return targetText(s);
        case Model: return s.model;
        case Endpoint: return toString(s.endpoint);
        case Flavor: return toString(s.flavor);
        case ApiKey:
            if (role == Qt::EditRole)
                return QVariant(); // edited in the detail panel (masked)
            if (!s.apiKeyEnv.isEmpty())
                return QStringLiteral("$") + s.apiKeyEnv;
            return s.apiKey.isEmpty() ? QStringLiteral("—") : QStringLiteral("••••••");
        case Hooks: return hooksSummary(s);
        }
        break;
    case Qt::ToolTipRole:
        if (!error.isEmpty())
            return error;
        if (index.column() == Name) {
            // The list shows this column: its tooltip is the row's errors, else the whole summary.
            const QString all = rowErrors();
            return all.isEmpty() ? data(index, SummaryRole) : QVariant(all);
        }
        if (index.column() == Target)
            return tr("An http(s) URL, or %1 for an embedded mock server")
                .arg(QStringLiteral("mock:") + mockPersonalityNames().join(QStringLiteral(" / mock:")));
        break;
    case Qt::BackgroundRole:
        if (!error.isEmpty())
            return QBrush(QColor(0xd0, 0x45, 0x3a, 70));
        break;
    default:
        break;
    }
    return {};
}

QVariant ServerTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return tr("Name");
    case Target: return tr("URL or mock");
    case Model: return tr("Model");
    case Endpoint: return tr("Endpoint");
    case Flavor: return tr("Flavor");
    case ApiKey: return tr("API key");
    case Hooks: return tr("Hooks");
    }
    return {};
}

Qt::ItemFlags ServerTableModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() != ApiKey && index.column() != Hooks)
        f |= Qt::ItemIsEditable;
    return f;
}

bool ServerTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    ServerSpec &s = m_servers[index.row()];
    const QString text = value.toString();
    switch (index.column()) {
    case Name: s.name = text.trimmed(); break;
    case Target: setTargetText(s, text); break;
    case Model: s.model = text.trimmed(); break;
    case Endpoint: {
        const auto e = endpointFromString(text);
        if (!e)
            return false;
        s.endpoint = *e;
        break;
    }
    case Flavor: {
        const auto f = flavorFromString(text);
        if (!f)
            return false;
        s.flavor = *f;
        break;
    }
    default:
        return false;
    }
    Q_EMIT dataChanged(index.siblingAtColumn(0), index.siblingAtColumn(ColumnCount - 1));
    Q_EMIT serversEdited();
    return true;
}

} // namespace sb::ui
