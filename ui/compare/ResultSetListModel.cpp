#include "compare/ResultSetListModel.h"
#include "charts/ChartFactory.h"
#include "charts/ChartStyle.h"
#include <QDir>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
#include <cmath>

namespace sb::ui {

namespace {
// A legend key for the set: its dash pattern through its marker, in neutral grey (colours belong
// to servers, not sets).
QIcon styleSwatch(int styleIndex)
{
    QPixmap pm(36, 16);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor grey(0x44, 0x44, 0x44);
    QPen pen(grey, 2, setPenStyle(styleIndex));
    p.setPen(pen);
    p.drawLine(QPointF(1, 8), QPointF(35, 8));
    p.setPen(Qt::NoPen);
    p.setBrush(grey);
    const QPointF c(18, 8);
    switch (setMarkerShape(styleIndex)) {
    case QScatterSeries::MarkerShapeRectangle: p.drawRect(QRectF(c - QPointF(4, 4), QSizeF(8, 8))); break;
    case QScatterSeries::MarkerShapeRotatedRectangle:
        p.drawPolygon(QPolygonF({c + QPointF(0, -5), c + QPointF(5, 0), c + QPointF(0, 5), c + QPointF(-5, 0)}));
        break;
    case QScatterSeries::MarkerShapeTriangle:
        p.drawPolygon(QPolygonF({c + QPointF(0, -5), c + QPointF(5, 4), c + QPointF(-5, 4)}));
        break;
    case QScatterSeries::MarkerShapeStar:
    case QScatterSeries::MarkerShapePentagon: {
        QPolygonF poly;
        for (int i = 0; i < 5; ++i) {
            const double a = -M_PI / 2 + i * 2 * M_PI / 5;
            poly << c + QPointF(5.5 * std::cos(a), 5.5 * std::sin(a));
        }
        p.drawPolygon(poly);
        break;
    }
    default: p.drawEllipse(c, 4.5, 4.5); break;
    }
    return QIcon(pm);
}
} // namespace

ResultSetListModel::ResultSetListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

int ResultSetListModel::freeStyleIndex() const
{
    for (int s = 0;; ++s) {
        bool used = false;
        for (const Set &set : m_sets)
            used = used || set.styleIndex == s;
        if (!used)
            return s;
    }
}

void ResultSetListModel::add(const LoadedResults &loaded, const QString &path)
{
    Set set{loaded, path, loaded.displayName, freeStyleIndex()};
    if (set.name.isEmpty())
        set.name = loaded.results.sweepName.isEmpty() ? QStringLiteral("set %1").arg(m_sets.size() + 1) : loaded.results.sweepName;
    beginInsertRows({}, int(m_sets.size()), int(m_sets.size()));
    m_sets.append(set);
    endInsertRows();
}

void ResultSetListModel::remove(int row)
{
    if (row < 0 || row >= m_sets.size())
        return;
    beginRemoveRows({}, row, row);
    m_sets.removeAt(row);
    endRemoveRows();
}

void ResultSetListModel::clear()
{
    beginResetModel();
    m_sets.clear();
    endResetModel();
}

QList<ChartSeriesInput> ResultSetListModel::chartInputs() const
{
    QList<ChartSeriesInput> out;
    for (const Set &s : m_sets)
        out.append(ChartSeriesInput{s.name, s.loaded.results, s.styleIndex});
    return out;
}

int ResultSetListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sets.size());
}

QVariant ResultSetListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Set &s = m_sets.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return s.name;
    case Qt::DecorationRole: return styleSwatch(s.styleIndex);
    case Qt::ToolTipRole:
        return tr("%1\n%2 cells, %3 servers, from %4")
            .arg(QDir::toNativeSeparators(s.path))
            .arg(s.loaded.results.cells.size())
            .arg(s.loaded.results.serverNames().size())
            .arg(s.loaded.results.sourceTool);
    case PathRole: return s.path;
    case StyleIndexRole: return s.styleIndex;
    }
    return {};
}

bool ResultSetListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const QString name = value.toString().trimmed();
    if (name.isEmpty() || name == m_sets.at(index.row()).name)
        return false;
    m_sets[index.row()].name = name;
    Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    return true;
}

Qt::ItemFlags ResultSetListModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractListModel::flags(index);
    return index.isValid() ? f | Qt::ItemIsEditable : f;
}

} // namespace sb::ui
