#pragma once
// The one CSV field escaper (RFC 4180) for every CSV the product writes: results.csv in report
// bundles and the results table copied to the clipboard. Text a spreadsheet would run as a
// formula (a leading = + - @, tab or CR) gets a leading apostrophe, because server names, reasons
// and error text come from untrusted specs and servers. Plain numbers ("-1", "2.5e-3") are left
// as they are so they stay numbers when pasted.
#include <QString>

namespace sb {

QString csvField(const QString &s);

} // namespace sb
