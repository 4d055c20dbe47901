#pragma once
// The renderings of a regression gate's result (report/RegressionGate.h): the terminal table
// `sweepbench diff` prints, a Markdown page for a CI job summary, and JUnit XML for CI test
// reports. Text the result sets control (server names, set names, workload values) is made safe
// for each: control and bidi characters shown as escapes (report/DisplayText.h), Markdown
// punctuation backslash-escaped so a name cannot close a table cell, start a link or raw HTML,
// XML escaped by the writer.
//
// JUnit: one testcase per series × point, named "SERIES at POINT" with the series as classname;
// it fails (one <failure>, every regressed metric in its message and body) when any metric of the
// point regressed, and every metric's line is in its <system-out>. Nothing comparable: a single
// testcase "comparison" with an <error> saying why.
#include "report/RegressionGate.h"
#include <QByteArray>
#include <QString>

namespace sb {

QString gateText(const GateResult &r);
QByteArray gateMarkdown(const GateResult &r);
QByteArray gateJUnitXml(const GateResult &r);
// Markdown inline text for an untrusted string: one line, every ASCII punctuation character
// backslash-escaped (CommonMark allows that escape for all of them; GitHub tables honour "\|").
QString markdownText(const QString &text);

} // namespace sb
