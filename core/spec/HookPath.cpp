#include "spec/HookPath.h"

namespace sb {

QString checkHookPath(const QString &path)
{
    if (path.isEmpty())
        return QStringLiteral("expected a path starting with '/'");
    if (path.contains(QLatin1String("://")))
        return QStringLiteral("expected a relative path (no scheme or host); hooks go to the server's own origin");
    if (!path.startsWith(QLatin1Char('/')))
        return QStringLiteral("expected a path starting with '/'");
    if (path.contains(QLatin1Char(' ')) || path.contains(QLatin1Char('#')))
        return QStringLiteral("expected a path without spaces or fragments");
    return {};
}

} // namespace sb
