#pragma once
// The metric keys a ChartsPanel's metric chooser offers, in menu order: what the tests of
// catalogue metrics shown only where cells stored them (reasoning, trace figures) compare.
#include "charts/ChartsPanel.h"
#include <QComboBox>
#include <QStringList>

namespace sbtest {

inline QStringList metricMenu(const sb::ui::ChartsPanel &panel)
{
    QStringList keys;
    auto *combo = panel.findChild<QComboBox *>(QStringLiteral("metricChoice"));
    for (int i = 0; combo && i < combo->count(); ++i)
        keys.append(combo->itemData(i).toString());
    return keys;
}

} // namespace sbtest
