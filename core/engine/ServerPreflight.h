#pragma once
// The preflight's checks of a server itself, whatever hooks it has (with every
// hook off, an unreachable server used to "pass" the check):
//  - reachability: a TCP connect to the origin, then an HTTP answer (to GET /v1/models);
//  - model_list: the answer to GET /v1/models lists the spec's model. A 404 (the server has no
//    such route) or an unreadable list is a warning; a list without the model is a failure that
//    names the models served.
// Reported as HookOutcomes (results/HookVocabulary.h) so the hook check's table, the CLI and the
// severity rule (results/HookSeverity.h) treat them like hooks. Blocking: runs on the preflight's
// thread (engine/HookPreflight).
#include "hooks/ControlClient.h"
#include "hooks/HookRunner.h"
#include "results/Results.h"
#include <QStringList>
#include <atomic>

namespace sb {

// At most this many served model ids are named in a message; a list is bounded by the control
// client's body limit anyway.
inline constexpr int kMaxListedModels = 20;

// `checkModel` = false for embedded mocks: they accept any model name, which the model_list
// outcome then says (ok, not asked). Appends advice to `hints`.
QList<HookOutcome> checkServerAnswers(ControlClient &client, const HookTarget &target, bool checkModel,
                                      const std::atomic<bool> *cancel, QStringList *hints);

// The served model ids of a /v1/models answer ({"data": [{"id": ...}]}); nullopt when unreadable.
std::optional<QStringList> servedModels(const QByteArray &body);

// base URL "http://h:8000" or "http://h:8000/v1" -> "http://h:8000/v1/models"
QUrl modelListUrl(const QString &baseUrl);

} // namespace sb
