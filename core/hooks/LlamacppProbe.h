#pragma once
// `hooks check` for llama-server (flavor llamacpp, docs/spec-reference.md): what GET /props says
// about its slots, and whether erasing every slot is a full reset. /props does not show the
// host-RAM prompt cache (--cache-ram), so that is measured: one prompt, then another (llama-server
// copies idle slots into that cache when a new task starts), the reset, then the first prompt
// again: cached prompt tokens after a verified erase can only have come from the host cache.
// Three requests of one output token each; only when the reset hook is on.
#include "hooks/ControlClient.h"
#include "hooks/HookRunner.h"
#include <QStringList>

namespace sb {

class LlamacppProbe
{
public:
    LlamacppProbe(ControlClient &client, const HookTarget &target, const std::atomic<bool> *cancel);
    // Hints from GET /props (not a llama-server, or its slot list switched off); empty when fine.
    QStringList readProps();
    // Before the reset: the probe prompt and a second one. False (with a hint) when they fail.
    bool prime(QStringList *hints);
    // After a verified reset: the probe prompt again; a hint when any of it was still cached.
    QStringList checkAfterReset();

private:
    // Sends one non-streaming completion of one token; returns its cached prompt tokens (usage,
    // else timings.cache_n) or -1 with *error set.
    int complete(const QString &prompt, int *promptTokens, QString *error);

    ControlClient &m_client;
    HookTarget m_target;
    const std::atomic<bool> *m_cancel;
    QString m_probePrompt;
};

} // namespace sb
