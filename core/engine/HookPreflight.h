#pragma once
// `sweepbench hooks check` and the designer's "Check hooks" button: checks that each server
// answers and serves the spec's model (engine/ServerPreflight.h), then calls its enabled hooks
// once (reset, profiler start, profiler stop), on its own thread, and reports verdicts.
#include "results/Results.h"
#include "spec/SecretSet.h"
#include "spec/SweepSpec.h"
#include <QObject>
#include <memory>

namespace sb {

class HookPreflightWorker;

class HookPreflight : public QObject
{
    Q_OBJECT
public:
    explicit HookPreflight(const SweepSpec &spec, QObject *parent = nullptr);
    ~HookPreflight() override;
    void start(); // returns at once

// Both report signals are private: only report() emits them, after scrubbing the spec's secrets
// from every text they carry (a served model id, a hook's answer or a hint may quote the key), so
// the CLI's lines and the designer's table never show one.
Q_SIGNALS:
    // One per server, in spec order, before its serverChecked: reachability and model_list
    // outcomes of each origin, with advice for failures.
    void serverReached(const QString &server, const QList<sb::HookOutcome> &checks, const QStringList &hints, QPrivateSignal);
    // One per server, in spec order; `hints` carries per-outcome advice (route_missing etc.).
    void serverChecked(const QString &server, const QList<sb::HookOutcome> &outcomes, const QStringList &hints, QPrivateSignal);
    void finished();

private:
    friend class HookPreflightWorker;
    enum class Stage { Reached, Checked };
    // From the checker's thread: scrubs, then emits serverReached or serverChecked.
    void report(Stage stage, const QString &server, QList<HookOutcome> outcomes, QStringList hints);

    SecretSet m_secrets; // the spec's, api_key_env read when the check is made
    std::unique_ptr<HookPreflightWorker> m_worker;
};

} // namespace sb
