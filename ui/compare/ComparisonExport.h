#pragma once
// Compare → Export comparison…: renders the Compare charts offscreen and writes one
// self-contained HTML page (report/ComparisonHtml.h) atomically.
#include "charts/ChartFactory.h"
#include <QString>

namespace sb::ui {

// The sets as Compare holds them (names, styles); the difference table compares metric.stat.
// `specs` are the sets' sweep.yaml texts: every secret they name (api_key values, the values of
// their api_key_env variables now) is redacted from the page, as in a report bundle, and the
// page is refused if one survives.
bool writeComparisonHtml(const QString &path, const QList<ChartSeriesInput> &sets, const QString &metric, Stat stat,
                         QString *error, const QStringList &sources = {}, const QList<QByteArray> &specs = {});

} // namespace sb::ui
