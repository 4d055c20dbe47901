// loadSpecText / loadSpecFile: YAML → SweepSpec with located diagnostics.
// The loader checks shape and types (it is the only place that sees the source); ranges,
// duplicates and cross-key rules live in validateSpec() so the GUI gets the same checks.
// Validator findings are then pointed back at the source through the remembered key paths.
#include "spec/SpecIO.h"
#include "spec/SpecParsers.h"
#include "spec/SpecRules.h"
#include "spec/YamlBounds.h"
#include "spec/YamlDocument.h"
#include "io/BoundedRead.h"
#include <algorithm>
#include <type_traits>

namespace sb {

using namespace sb::yaml;
using namespace sb::specparse;

namespace {

void parseWorkload(Context &ctx, const YAML::Node &node, const QString &path, WorkloadSpec &w)
{
    MapReader m(ctx, node, path, kWorkloadKeys, placeHint);
    m.boolean(QStringLiteral("streaming"), w.streaming);
    readLengths(m, QStringLiteral("input_tokens"), w.inputTokens, w.inputLengths);
    readLengths(m, QStringLiteral("output_tokens"), w.outputTokens, w.outputLengths);
    readWorkloadSource(m, w);
    m.boolean(QStringLiteral("ignore_eos"), w.ignoreEos);
    m.boolean(QStringLiteral("calibrate_prompts"), w.calibratePrompts);
    m.integer(QStringLiteral("requests_per_cell"), w.requestsPerCell, spec::expectPositiveInt());
    m.number(QStringLiteral("duration_s"), w.durationS, spec::expectPositiveNumber());
    if (!m.has(QStringLiteral("requests_per_cell")) && !m.has(QStringLiteral("duration_s")))
        w.requestsPerCell = spec::kDefaultRequestsPerCell;
    m.integer(QStringLiteral("warmup_requests"), w.warmupRequests, spec::expectNonNegativeInt());
    m.number(QStringLiteral("request_timeout_s"), w.requestTimeoutS, spec::expectPositiveNumber());
    readEnum(m, QStringLiteral("prompts"), w.prompts, &promptModeFromString, {"unique", "shared_prefix"});
    m.integer(QStringLiteral("shared_prefix_tokens"), w.sharedPrefixTokens, spec::expectPositiveInt());
    readWorkloadSessions(m, w);
    if (const YAML::Node *slo = m.find(QStringLiteral("slo"))) {
        const QString sloPath = m.path(QStringLiteral("slo"));
        if (!slo->IsMap()) {
            ctx.error(ctx.locate(sloPath), sloPath,
                      QStringLiteral("expected a mapping {%1} in ms, got %2").arg(kSloKeys.join(QStringLiteral(", ")), describe(*slo)));
            return;
        }
        MapReader s(ctx, *slo, sloPath, kSloKeys, placeHint);
        for (const SloLimit &l : kSloLimits) {
            const QString key = QLatin1String(l.key);
            double v = 0;
            if (const YAML::Node *n = s.find(key); n && readNumber(ctx, *n, s.path(key), v, spec::expectPositiveNumber()))
                w.slo.*l.limit = v;
        }
    }
}

// Reads a list of numbers (`sweep.concurrency` or `sweep.request_rate`); a bad entry keeps its
// slot (as 0) so later indices still match the source.
template <typename T>
void readPointList(Context &ctx, const YAML::Node &list, const QString &listPath, QList<T> &out, const QString &what)
{
    int i = 0;
    for (const auto &item : list) {
        const QString itemPath = indexPath(listPath, i++);
        ctx.remember(itemPath, toPos(item.Mark()));
        T v = 0;
        if constexpr (std::is_same_v<T, int>)
            readInt(ctx, item, itemPath, v, what);
        else
            readNumber(ctx, item, itemPath, v, what);
        out.append(v);
    }
}

// The open-loop keys (request_rate and what shapes its arrivals); docs/spec-reference.md.
void parseOpenLoop(Context &ctx, const MapReader &m, OpenLoopSpec &o)
{
    readEnum(m, QStringLiteral("arrival"), o.arrival, &arrivalFromString, arrivalNames());
    m.number(QStringLiteral("burstiness"), o.burstiness, spec::expectBurstiness());
    readEnum(m, QStringLiteral("rate_mean"), o.rateMean, &rateMeanFromString, rateMeanNames());
    m.integer(QStringLiteral("seed"), o.seed, spec::expectSeed());
    m.integer(QStringLiteral("max_concurrency"), o.maxConcurrency, spec::expectConcurrency());
    const YAML::Node *r = m.find(QStringLiteral("request_rate"));
    const QString rPath = m.path(QStringLiteral("request_rate"));
    if (!r->IsSequence()) {
        ctx.error(ctx.locate(rPath), rPath, QStringLiteral("expected a list of request rates in requests/s, e.g. [2, 8, 32], got %1").arg(describe(*r)));
        return;
    }
    readPointList(ctx, *r, rPath, o.rates, spec::expectRequestRate());
}

void parseSweep(Context &ctx, const YAML::Node &node, const QString &path, SweepSpec &spec)
{
    MapReader m(ctx, node, path, kSweepKeys, placeHint);
    readEnum(m, QStringLiteral("on_hook_failure"), spec.onHookFailure, &policyFromString, {"skip_cell", "abort", "continue"});
    m.number(QStringLiteral("max_error_rate"), spec.maxErrorRate, spec::expectFraction());
    m.integer(QStringLiteral("repeats"), spec.repeats, spec::expectRepeats());
    if (const YAML::Node *s = m.find(QStringLiteral("slo_search"))) {
        const QString sPath = m.path(QStringLiteral("slo_search"));
        if (!s->IsMap()) {
            ctx.error(ctx.locate(sPath), sPath, QStringLiteral("expected a mapping {percentile, resolution}, got %1").arg(describe(*s)));
        } else {
            spec.sloSearch.enabled = true;
            MapReader r(ctx, *s, sPath, {QStringLiteral("percentile"), QStringLiteral("resolution")});
            r.integer(QStringLiteral("percentile"), spec.sloSearch.percentile, spec::expectSloPercentile());
            r.number(QStringLiteral("resolution"), spec.sloSearch.resolution, spec::expectPositiveNumber());
        }
    }
    const YAML::Node *c = m.find(QStringLiteral("concurrency"));
    const QString cPath = m.path(QStringLiteral("concurrency"));
    // Both lists are read when both are written: the validator names the conflict (the GUI
    // designer gets the same check).
    if (m.has(QStringLiteral("request_rate"))) {
        parseOpenLoop(ctx, m, spec.openLoop);
        if (!c)
            return;
    } else {
        for (const char *key : {"arrival", "burstiness", "rate_mean", "seed", "max_concurrency"})
            if (m.has(QLatin1String(key)))
                ctx.error(m.keyPos(QLatin1String(key)), m.path(QLatin1String(key)), QStringLiteral("only allowed with request_rate (an open-loop sweep)"));
    }
    if (!c) {
        ctx.error(ctx.locate(path), cPath,
                  QStringLiteral("missing required key; expected a list of concurrency levels, e.g. [1, 2, 4, 8], "
                                 "or request_rate: a list of request rates in requests/s"));
        return;
    }
    if (!c->IsSequence()) {
        ctx.error(ctx.locate(cPath), cPath, QStringLiteral("expected a list of concurrency levels, e.g. [1, 2, 4, 8], got %1").arg(describe(*c)));
        return;
    }
    readPointList(ctx, *c, cPath, spec.concurrency, spec::expectConcurrency());
}

void parseServers(Context &ctx, const YAML::Node &node, const QString &path, SweepSpec &spec)
{
    if (!node.IsSequence()) {
        ctx.error(ctx.locate(path), path, QStringLiteral("expected a list of servers (each a mapping with name, url or mock, model), got %1").arg(describe(node)));
        return;
    }
    int i = 0;
    for (const auto &item : node) {
        const QString itemPath = indexPath(path, i++);
        ctx.remember(itemPath, toPos(item.Mark()));
        if (!item.IsMap()) {
            ctx.error(toPos(item.Mark()), itemPath, QStringLiteral("expected a server mapping {name, url or mock, model, ...}, got %1").arg(describe(item)));
            spec.servers.append(ServerSpec()); // keep indices aligned with the source
            continue;
        }
        spec.servers.append(parseServer(ctx, item, itemPath));
    }
}

void parseRoot(Context &ctx, const YAML::Node &root, SweepSpec &spec)
{
    ctx.remember(QString(), toPos(root.Mark()));
    MapReader m(ctx, root, QString(), kRootKeys, placeHint);
    m.string(QStringLiteral("name"), spec.name);
    m.string(QStringLiteral("description"), spec.description);
    spec.workload.requestsPerCell = spec::kDefaultRequestsPerCell; // unless workload says otherwise
    const auto section = [&](const QString &key, auto parse) {
        const YAML::Node *n = m.find(key);
        if (!n)
            return;
        if (!n->IsMap() && key != QLatin1String("servers")) {
            ctx.error(m.keyPos(key), key, QStringLiteral("expected a mapping, got %1").arg(describe(*n)));
            return;
        }
        parse(*n);
    };
    section(QStringLiteral("servers"), [&](const YAML::Node &n) { parseServers(ctx, n, QStringLiteral("servers"), spec); });
    section(QStringLiteral("workload"), [&](const YAML::Node &n) {
        spec.workload.requestsPerCell = 0;
        parseWorkload(ctx, n, QStringLiteral("workload"), spec.workload);
    });
    section(QStringLiteral("sweep"), [&](const YAML::Node &n) { parseSweep(ctx, n, QStringLiteral("sweep"), spec); });
    if (const YAML::Node *t = m.find(QStringLiteral("telemetry")))
        parseTelemetry(ctx, *t, QStringLiteral("telemetry"), spec.telemetry);
    if (const YAML::Node *c = m.find(QStringLiteral("cost")))
        parseCost(ctx, *c, QStringLiteral("cost"), spec.cost.emplace());
    if (!m.has(QStringLiteral("servers")))
        ctx.error(ctx.locate(QString()), QStringLiteral("servers"), QStringLiteral("missing required key; expected a list of servers"));
    if (!m.has(QStringLiteral("sweep")))
        ctx.error(ctx.locate(QString()), QStringLiteral("sweep"), QStringLiteral("missing required key; expected a mapping with concurrency: [...] or request_rate: [...]"));
}

// Parses the text into `root`; reports a syntax error with its position and returns false.
bool parseYaml(Context &ctx, const QByteArray &text, YAML::Node &root)
{
    if (const auto exceeded = checkYamlBounds(text)) { // before any walk can blow up
        ctx.error(exceeded->pos, QString(), exceeded->message);
        return false;
    }
    try {
        const DocumentRead read = readSingleDocument(text.toStdString());
        if (read.outcome == DocumentRead::Outcome::Stuck) {
            ctx.error(toPos(read.at), QString(), QStringLiteral("YAML syntax error: unexpected character; expected a mapping, a list or a value"));
            return false;
        }
        if (read.outcome == DocumentRead::Outcome::Several) {
            ctx.error(toPos(read.at), QString(), QStringLiteral("expected a single YAML document, found %1")
                                                     .arg(read.documents > 2 ? QStringLiteral("3 or more") : QString::number(read.documents)));
            return false;
        }
        if (read.outcome == DocumentRead::Outcome::Empty || isNullScalar(read.root)) {
            ctx.error({1, 1}, QString(), QStringLiteral("the spec is empty; expected a mapping with servers, workload and sweep"));
            return false;
        }
        root = read.root;
    } catch (const YAML::Exception &e) {
        QString msg = QStringLiteral("YAML syntax error: %1").arg(QString::fromStdString(e.msg));
        // yaml-cpp 0.7 rejects '?' inside a plain scalar in flow style, which is exactly how
        // `reset_kv_cache: {path: /flush_cache?timeout=30}` is written: say how to fix it.
        if (e.mark.pos >= 0 && e.mark.pos < text.size() && text.at(e.mark.pos) == '?')
            msg += QStringLiteral("; inside {...} quote a path with a query ('/flush_cache?timeout=30') or use block style");
        ctx.error(toPos(e.mark), QString(), msg);
        return false;
    }
    if (!root.IsMap()) {
        ctx.error(toPos(root.Mark()), QString(),
                  QStringLiteral("expected a mapping with servers, workload and sweep at the top level, got %1").arg(describe(root)));
        return false;
    }
    return true;
}

} // namespace

SpecLoadResult loadSpecText(const QByteArray &yamlText, const QString &fileName)
{
    Context ctx(fileName);
    SweepSpec spec;
    SpecLoadResult result;
    YAML::Node root;
    if (!parseYaml(ctx, yamlText, root)) {
        result.diagnostics = ctx.diagnostics();
        return result;
    }
    parseRoot(ctx, root, spec);
    const bool readWhole = !hasErrors(ctx.diagnostics());

    // Semantic checks, placed at the key they name (or its nearest written ancestor). Findings
    // under a key that already has a type/shape error would only repeat it, so they are dropped.
    for (SpecDiagnostic d : validateSpec(spec)) {
        if (ctx.coveredByError(d.keyPath))
            continue;
        const SourcePos pos = ctx.locate(d.keyPath);
        d.file = fileName;
        d.line = pos.line;
        d.column = pos.column;
        ctx.diagnostics().append(d);
    }
    result.diagnostics = ctx.diagnostics();
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), [](const SpecDiagnostic &a, const SpecDiagnostic &b) {
        return std::pair(a.line, a.column) < std::pair(b.line, b.column);
    });
    if (!hasErrors(result.diagnostics))
        result.spec = std::move(spec);
    else if (readWhole)
        result.draft = std::move(spec);
    return result;
}

bool readSpecFile(const QString &path, QByteArray *text, QString *error)
{
    return readRegularFile(path, kMaxSmallFileBytes, text, error);
}

SpecLoadResult loadSpecFile(const QString &path, QByteArray *text)
{
    QByteArray bytes;
    QString error;
    if (!readSpecFile(path, &bytes, &error)) {
        SpecLoadResult r;
        SpecDiagnostic d;
        d.file = path;
        d.message = QStringLiteral("cannot read the spec: %1").arg(error);
        r.diagnostics.append(d);
        return r;
    }
    SpecLoadResult r = loadSpecText(bytes, path);
    for (auto *loaded : {&r.spec, &r.draft})
        if (*loaded)
            (*loaded)->sourcePath = path;
    if (text)
        *text = std::move(bytes);
    return r;
}

} // namespace sb
