#include "mainwindow/SpecTemplates.h"
#include "spec/SpecIO.h"
#include <QCoreApplication>
#include <QFile>

namespace sb::ui {

const QList<SpecTemplate> &specTemplates()
{
    static const QList<SpecTemplate> list = {
        {QStringLiteral("templateCacheEffect"), QCoreApplication::translate("SpecTemplates", "The &cache effect (reset on and off, shared prefixes)"),
         QStringLiteral(":/templates/cache-effect.yaml")},
        {QStringLiteral("templateChatSessions"), QCoreApplication::translate("SpecTemplates", "Multi-turn &chat sessions"),
         QStringLiteral(":/templates/chat-sessions.yaml")},
    };
    return list;
}

std::optional<SweepSpec> loadTemplate(const SpecTemplate &t, QString *error)
{
    QFile file(t.resource);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(t.resource, file.errorString());
        return std::nullopt;
    }
    const SpecLoadResult loaded = loadSpecText(file.readAll(), t.resource.section(QLatin1Char('/'), -1));
    if (!loaded.ok()) {
        *error = loaded.diagnostics.isEmpty() ? t.resource : loaded.diagnostics.first().toString();
        return std::nullopt;
    }
    SweepSpec spec = *loaded.spec;
    spec.sourcePath.clear(); // a new sweep: Save asks where
    return spec;
}

} // namespace sb::ui
