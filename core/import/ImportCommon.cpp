#include "import/ImportCommon.h"
#include "io/BoundedJson.h"

namespace sb {

bool readJsonObject(const QString &path, QJsonObject *out, QString *error, qint64 maxBytes)
{
    // Regular files only, within the caps: /dev/zero or a FIFO is refused at once (io/BoundedJson.h).
    JsonFileCaps caps;
    caps.maxBytes = maxBytes;
    return readJsonFile(path, out, error, caps);
}

} // namespace sb
