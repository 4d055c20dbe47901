// Loader side of the workload's length distributions, seed and dataset (spec/WorkloadShapes.h):
// shapes and types only; ranges are checked by workloadShapeProblems() so the GUI gets them too.
#include "spec/SpecParsers.h"
#include "spec/SpecRules.h"
#include <cmath>

namespace sb::specparse {

using namespace sb::yaml;

namespace {
const QStringList kLengthKeys = {"mean", "stddev", "min", "max"};
const QStringList kChoiceKeys = {"value", "weight"};
const QStringList kDatasetKeys = {"format", "path", "block_tokens"};
const QStringList kImageKeys = {"count", "width", "height", "format"};

// `images: {count, width, height, format}`; ranges are checked by workloadShapeProblems().
void readImages(const MapReader &m, WorkloadSpec &w)
{
    const YAML::Node *n = m.find(QStringLiteral("images"));
    if (!n)
        return;
    Context &ctx = m.context();
    const QString path = m.path(QStringLiteral("images"));
    if (!n->IsMap()) {
        ctx.error(valuePos(ctx, *n, path), path,
                  QStringLiteral("expected a mapping {count, width, height, format: %1}, got %2").arg(imageFormatNames().join(QLatin1Char('|')), describe(*n)));
        return;
    }
    MapReader r(ctx, *n, path, kImageKeys);
    ImageSpec im;
    r.integer(QStringLiteral("count"), im.count, spec::expectPositiveInt());
    r.integer(QStringLiteral("width"), im.width, spec::expectPositiveInt());
    r.integer(QStringLiteral("height"), im.height, spec::expectPositiveInt());
    readEnum(r, QStringLiteral("format"), im.format, &imageFormatFromString, imageFormatNames());
    w.images = im;
}

QString expectLengths()
{
    return QStringLiteral("an integer ≥ 1, a mapping {mean, stddev, min, max} (normal) or {min, max} (uniform), "
                          "or a list of lengths or {value, weight} entries");
}

bool readChoices(Context &ctx, const YAML::Node &node, const QString &path, LengthDistribution &d)
{
    d.kind = LengthKind::Choices;
    if (node.size() > std::size_t(kMaxLengthChoices)) {
        ctx.error(valuePos(ctx, node, path), path, QStringLiteral("at most %1 entries, got %2").arg(kMaxLengthChoices).arg(node.size()));
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < node.size(); ++i) {
        const YAML::Node &e = node[i];
        const QString p = indexPath(path, int(i));
        ctx.remember(p, toPos(e.Mark()));
        LengthChoice c;
        if (e.IsMap()) {
            MapReader m(ctx, e, p, kChoiceKeys);
            if (!m.has(QStringLiteral("value"))) {
                ctx.error(valuePos(ctx, e, p), p, QStringLiteral("expected a mapping {value, weight} with a value"));
                ok = false;
                continue;
            }
            m.integer(QStringLiteral("value"), c.value, spec::expectPositiveInt());
            m.number(QStringLiteral("weight"), c.weight, QStringLiteral("a number > 0"));
        } else if (!readInt(ctx, e, p, c.value, spec::expectPositiveInt())) {
            ok = false;
            continue;
        }
        d.choices.append(c);
    }
    return ok;
}
} // namespace

void readLengths(const MapReader &m, const QString &key, int &fixed, std::optional<LengthDistribution> &dist)
{
    const YAML::Node *n = m.find(key);
    if (!n)
        return;
    Context &ctx = m.context();
    const QString path = m.path(key);
    if (n->IsScalar()) { // the usual case keeps the usual message
        readInt(ctx, *n, path, fixed, spec::expectPositiveInt());
        return;
    }
    LengthDistribution d;
    if (n->IsSequence()) {
        if (n->size() == 0) {
            ctx.error(valuePos(ctx, *n, path), path, QStringLiteral("expected %1, got an empty list").arg(expectLengths()));
            return;
        }
        if (!readChoices(ctx, *n, path, d))
            return;
    } else if (n->IsMap()) {
        MapReader r(ctx, *n, path, kLengthKeys);
        const bool normal = r.has(QStringLiteral("mean")) || r.has(QStringLiteral("stddev"));
        if (normal && !(r.has(QStringLiteral("mean")) && r.has(QStringLiteral("stddev")))) {
            ctx.error(valuePos(ctx, *n, path), path, QStringLiteral("a normal distribution needs both mean and stddev"));
            return;
        }
        if (!normal && !(r.has(QStringLiteral("min")) && r.has(QStringLiteral("max")))) {
            ctx.error(valuePos(ctx, *n, path), path, QStringLiteral("expected %1; a uniform distribution needs both min and max").arg(expectLengths()));
            return;
        }
        d.kind = normal ? LengthKind::Normal : LengthKind::Uniform;
        r.number(QStringLiteral("mean"), d.mean, QStringLiteral("a number > 0"));
        r.number(QStringLiteral("stddev"), d.stddev, QStringLiteral("a number ≥ 0"));
        d.min = 1;
        // Unbounded above by default would let one draw in a million ask for a huge prompt.
        d.max = normal ? int(std::min(double(kMaxLength), std::ceil(d.mean + 4 * std::max(0.0, d.stddev)))) : 0;
        r.integer(QStringLiteral("min"), d.min, spec::expectPositiveInt());
        r.integer(QStringLiteral("max"), d.max, spec::expectPositiveInt());
    } else {
        ctx.error(valuePos(ctx, *n, path), path, QStringLiteral("expected %1, got %2").arg(expectLengths(), describe(*n)));
        return;
    }
    dist = d;
    if (lengthProblems(d, path).isEmpty())
        fixed = int(std::lround(d.expectedMean()));
}

void readWorkloadSource(const MapReader &m, WorkloadSpec &w)
{
    Context &ctx = m.context();
    if (const YAML::Node *n = m.find(QStringLiteral("seed"))) {
        int seed = 0;
        if (readInt(ctx, *n, m.path(QStringLiteral("seed")), seed, QStringLiteral("an integer ≥ 0")))
            w.seed = seed;
    }
    readImages(m, w);
    const YAML::Node *n = m.find(QStringLiteral("dataset"));
    if (!n)
        return;
    const QString path = m.path(QStringLiteral("dataset"));
    if (!n->IsMap()) {
        ctx.error(valuePos(ctx, *n, path), path,
                  QStringLiteral("expected a mapping {format: %1, path: FILE}, got %2").arg(datasetFormatNames().join(QLatin1Char('|')), describe(*n)));
        return;
    }
    MapReader r(ctx, *n, path, kDatasetKeys);
    DatasetSpec d;
    readEnum(r, QStringLiteral("format"), d.format, &datasetFormatFromString, datasetFormatNames());
    r.string(QStringLiteral("path"), d.path);
    r.integer(QStringLiteral("block_tokens"), d.blockTokens, spec::expectPositiveInt());
    w.dataset = d;
}

void readWorkloadSessions(const MapReader &m, WorkloadSpec &w)
{
    Context &ctx = m.context();
    m.integer(QStringLiteral("shared_prefix_count"), w.sharedPrefixCount, spec::expectPositiveInt());
    const YAML::Node *n = m.find(QStringLiteral("sessions"));
    if (!n)
        return;
    const QString path = m.path(QStringLiteral("sessions"));
    if (!n->IsMap()) {
        ctx.error(valuePos(ctx, *n, path), path,
                  QStringLiteral("expected a mapping {turns, think_time_ms, follow_up_tokens, history: full, session_header}, got %1").arg(describe(*n)));
        return;
    }
    MapReader r(ctx, *n, path, kSessionKeys);
    SessionSpec s;
    readLengths(r, QStringLiteral("turns"), s.turns, s.turnsDist);
    readLengths(r, QStringLiteral("think_time_ms"), s.thinkTimeMs, s.thinkDist);
    if (const YAML::Node *h = r.find(QStringLiteral("history"))) {
        // Only the whole history is sent today; the key is explicit so a spec says what it measures.
        if (!h->IsScalar() || yaml::scalarText(*h) != QLatin1String("full"))
            reportBadEnum(ctx, *h, r.path(QStringLiteral("history")), {"full"});
    }
    r.integer(QStringLiteral("follow_up_tokens"), s.followUpTokens, spec::expectPositiveInt());
    r.string(QStringLiteral("session_header"), s.header);
    w.sessions = s;
}

} // namespace sb::specparse
