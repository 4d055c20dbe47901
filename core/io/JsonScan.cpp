#include "io/JsonScan.h"
#include <algorithm>

namespace sb {

JsonShape scanJsonShape(QByteArrayView json, QByteArrayView arrayKey)
{
    JsonShape shape;
    int depth = 0;
    bool inString = false, escape = false;
    qsizetype stringStart = 0;
    QByteArrayView lastKey;     // the latest string read at depth 1 (a key of the top object)
    bool keyIsTarget = false;   // that key was followed by ':' and is arrayKey
    bool counting = false;      // inside the target array (its items are at depth 2)
    bool itemSeen = false;      // the current item of the target array has begun
    qsizetype items = 0;
    qsizetype itemValues = 0;   // values of the current item of the target array
    bool inScalar = false;      // inside a number or literal (true/false/null)
    // Values inside the target array belong to its current item.
    const auto countValue = [&] {
        ++shape.values;
        if (counting && depth >= 2)
            ++itemValues;
    };
    const auto endItem = [&] {
        if (itemValues > shape.largestItemValues) {
            shape.largestItemValues = itemValues;
            shape.largestItemIndex = items;
        }
        itemValues = 0;
    };
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"') {
                inString = false;
                if (depth == 1)
                    lastKey = json.sliced(stringStart, i - stringStart);
            }
            continue;
        }
        const bool structural = c == '"' || c == '{' || c == '[' || c == '}' || c == ']' || c == ',' || c == ':'
                                || c == ' ' || c == '\n' || c == '\r' || c == '\t';
        if (!structural) {
            if (!inScalar) {
                inScalar = true;
                countValue();
                if (counting && depth == 2)
                    itemSeen = true;
            }
            continue;
        }
        inScalar = false;
        switch (c) {
        case '"':
            inString = true;
            stringStart = i + 1;
            countValue(); // keys are counted too: they cost like values
            if (counting && depth == 2)
                itemSeen = true;
            break;
        case ':':
            if (depth == 1)
                keyIsTarget = !arrayKey.isEmpty() && lastKey == arrayKey;
            break;
        case '{':
        case '[':
            countValue();
            if (counting && depth == 2)
                itemSeen = true;
            ++depth;
            if (c == '[' && depth == 2 && keyIsTarget && !counting) {
                counting = true;
                items = 0;
                itemValues = 0;
                itemSeen = false;
            }
            break;
        case '}':
        case ']':
            if (counting && depth == 2) {
                endItem();
                shape.arrayItems = std::max(shape.arrayItems, items + (itemSeen ? 1 : 0));
                counting = false;
                keyIsTarget = false;
            }
            depth = std::max(0, depth - 1);
            break;
        case ',':
            if (counting && depth == 2) {
                endItem();
                ++items;
                itemSeen = false;
            }
            if (depth == 1)
                keyIsTarget = false;
            break;
        default:
            break;
        }
    }
    return shape;
}

} // namespace sb
