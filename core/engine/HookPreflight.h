#pragma once
// `sweepbench hooks check` and the designer's "Check hooks" button: checks that each server
// answers and serves the spec's model (engine/ServerPreflight.h), then calls its enabled hooks
// once (reset, profiler start, profiler stop), on its own thread, and reports verdicts.
#include "results/Results.h"
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

Q_SIGNALS:
    // One per server, in spec order, before its serverChecked: reachability and model_list
    // outcomes of each origin, with advice for failures.
    void serverReached(const QString &server, const QList<sb::HookOutcome> &checks, const QStringList &hints);
    // One per server, in spec order; `hints` carries per-outcome advice (route_missing etc.).
    void serverChecked(const QString &server, const QList<sb::HookOutcome> &outcomes, const QStringList &hints);
    void finished();

private:
    std::unique_ptr<HookPreflightWorker> m_worker;
};

} // namespace sb
