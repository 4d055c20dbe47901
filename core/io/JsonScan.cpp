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
    bool inScalar = false;      // inside a number or literal (true/false/null)
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
                ++shape.values;
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
            ++shape.values; // keys are counted too: they cost like values
            if (counting && depth == 2)
                itemSeen = true;
            break;
        case ':':
            if (depth == 1)
                keyIsTarget = !arrayKey.isEmpty() && lastKey == arrayKey;
            break;
        case '{':
        case '[':
            ++shape.values;
            if (counting && depth == 2)
                itemSeen = true;
            ++depth;
            if (c == '[' && depth == 2 && keyIsTarget && !counting) {
                counting = true;
                items = 0;
                itemSeen = false;
            }
            break;
        case '}':
        case ']':
            if (counting && depth == 2) {
                shape.arrayItems = std::max(shape.arrayItems, items + (itemSeen ? 1 : 0));
                counting = false;
                keyIsTarget = false;
            }
            depth = std::max(0, depth - 1);
            break;
        case ',':
            if (counting && depth == 2) {
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
