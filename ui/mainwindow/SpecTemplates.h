#pragma once
// The sweeps File → New from template offers: experiments worth starting from (the cache effect,
// chat sessions), compiled in from resources/templates/. Each opens as a new, unsaved sweep.
#include "spec/SweepSpec.h"
#include <QList>
#include <QString>
#include <optional>

namespace sb::ui {

struct SpecTemplate {
    QString id;       // object name of its menu action: "templateCacheEffect"
    QString title;    // menu text
    QString resource; // ":/templates/cache-effect.yaml"
};

const QList<SpecTemplate> &specTemplates();
// The template's spec, or nothing and *error (a template that does not load is a build defect,
// but the window says so rather than open half a sweep).
std::optional<SweepSpec> loadTemplate(const SpecTemplate &t, QString *error);

} // namespace sb::ui
