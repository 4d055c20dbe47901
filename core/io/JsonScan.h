#pragma once
// A pass over JSON text that counts what a parse would build, without building it: a document
// tree costs 6-8 times its text for number-heavy files (a 256 MB, 100k-cell results.json took
// 1.5 GB to parse), so the caps of io/ReadLimits.h are checked before the parse.
#include <QByteArrayView>
#include <QtGlobal>

namespace sb {

struct JsonShape {
    qsizetype values = 0;     // every value at any depth (objects, arrays, strings, numbers, ...)
    qsizetype arrayItems = 0; // items of the largest top-level `key: [...]` array (0 if none)
    // The item of that array holding the most values (itself and everything inside it), and
    // its position: a results.json cell with 2 million time slices is one such item.
    qsizetype largestItemValues = 0;
    qsizetype largestItemIndex = -1;
};

// Scans `json` (which need not be valid: the parser judges that afterwards). `arrayKey` names a
// member of the top-level object whose array items are counted, e.g. "cells"; a key repeated
// in the document counts by its largest array.
JsonShape scanJsonShape(QByteArrayView json, QByteArrayView arrayKey = {});

} // namespace sb
