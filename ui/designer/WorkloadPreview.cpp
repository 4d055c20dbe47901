#include "designer/WorkloadPreview.h"
#include "load/RequestFactory.h"
#include "workload/Dataset.h"
#include "workload/WorkloadPlan.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <algorithm>

namespace sb::ui {

QList<int> plannedLengths(const WorkloadSpec &w, bool input, int n, std::shared_ptr<const Dataset> dataset)
{
    QList<int> out;
    // Invalid shapes (min > max …) are the validator's to report; sampling them is undefined.
    if (!workloadShapeProblems(w).isEmpty() || n <= 0)
        return out;
    if (w.dataset && !dataset)
        return out; // not loaded (yet, or it failed)
    const WorkloadPlan plan(w, FillerMap(), dataset);
    out.reserve(n);
    for (int t = 0; t < n; ++t) {
        const RequestShape s = plan.at(t, false);
        const int v = input ? s.inputTokens : s.outputTokens;
        if (v < 0)
            return {}; // text prompts: counted by the server's tokenizer, not known here
        out.append(v);
    }
    return out;
}

LengthHistogram histogramOf(const QList<int> &lengths, int bins)
{
    LengthHistogram h;
    if (lengths.isEmpty() || bins <= 0)
        return h;
    const auto [lo, hi] = std::minmax_element(lengths.begin(), lengths.end());
    h.lo = *lo;
    h.hi = *hi;
    // No more bins than distinct values in the range: a narrow range gets one bar per length.
    const int n = int(std::min<qint64>(bins, qint64(h.hi) - h.lo + 1));
    h.counts = QList<int>(n, 0);
    const double width = (double(h.hi) - h.lo + 1) / n;
    for (int v : lengths)
        ++h.counts[std::min(n - 1, int((v - h.lo) / width))];
    h.samples = int(lengths.size());
    return h;
}

QString firstPromptText(const SweepSpec &spec, std::shared_ptr<const Dataset> dataset, int maxChars)
{
    if (!workloadShapeProblems(spec.workload).isEmpty() || (spec.workload.dataset && !dataset))
        return {};
    const ServerSpec server = spec.servers.value(0);
    const ServerTarget target = resolveTarget(QStringLiteral("http://localhost:8000"), server.endpoint);
    RequestFactory factory(server, target, spec.workload, QByteArrayLiteral("preview"));
    factory.usePlan(std::make_shared<const WorkloadPlan>(spec.workload, FillerMap(), dataset), false);
    const QJsonObject body = QJsonDocument::fromJson(factory.body(0)).object();
    QString text;
    if (body.contains(QStringLiteral("messages"))) {
        QStringList parts;
        for (const QJsonValue &m : body.value(QStringLiteral("messages")).toArray())
            parts << m.toObject().value(QStringLiteral("content")).toString();
        text = parts.join(QLatin1Char('\n'));
    } else {
        text = body.value(QStringLiteral("prompt")).toString();
    }
    return text.size() > maxChars ? text.left(maxChars) + QStringLiteral(" …") : text;
}

LengthHistogramView::LengthHistogramView(const QString &caption, QWidget *parent)
    : QWidget(parent), m_caption(caption)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void LengthHistogramView::setHistogram(const LengthHistogram &h, const QString &note)
{
    m_histogram = h;
    m_note = note;
    setToolTip(h.samples ? tr("%1: %2 requests, %3–%4 tokens").arg(m_caption).arg(h.samples).arg(h.lo).arg(h.hi) : note);
    update();
}

QSize LengthHistogramView::sizeHint() const
{
    return {240, fontMetrics().height() * 2 + 48};
}

QSize LengthHistogramView::minimumSizeHint() const
{
    return {120, sizeHint().height()};
}

void LengthHistogramView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QFontMetrics fm = fontMetrics();
    const QColor text = palette().color(QPalette::WindowText);
    p.setPen(text);
    p.drawText(QRect(0, 0, width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(m_caption, Qt::ElideRight, width()));
    const QRect plot(0, fm.height() + 2, width(), height() - 2 * fm.height() - 4);
    p.fillRect(plot, palette().color(QPalette::Base));
    if (!m_histogram.samples) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot.adjusted(4, 0, -4, 0), Qt::AlignCenter | Qt::TextWordWrap, m_note);
        return;
    }
    const int peak = *std::max_element(m_histogram.counts.cbegin(), m_histogram.counts.cend());
    const double barW = double(plot.width()) / m_histogram.counts.size();
    const QColor bar = palette().color(QPalette::Highlight);
    for (int i = 0; i < m_histogram.counts.size(); ++i) {
        const double hgt = peak ? double(plot.height() - 2) * m_histogram.counts[i] / peak : 0;
        p.fillRect(QRectF(plot.left() + i * barW + 0.5, plot.bottom() - hgt, std::max(1.0, barW - 1), hgt), bar);
    }
    p.setPen(text);
    const QRect axis(0, plot.bottom() + 2, width(), fm.height());
    p.drawText(axis, Qt::AlignLeft | Qt::AlignVCenter, QString::number(m_histogram.lo));
    p.drawText(axis, Qt::AlignRight | Qt::AlignVCenter, QString::number(m_histogram.hi));
    p.drawText(axis, Qt::AlignHCenter | Qt::AlignVCenter, tr("tokens · %1 requests").arg(m_histogram.samples));
}

} // namespace sb::ui
