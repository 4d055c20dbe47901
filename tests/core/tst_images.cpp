// Synthetic images in the workload (`workload.images`): the request bytes carry exactly `count`
// image_url parts whose base64 PNG / JPEG files Qt's own decoders read back at the asked size
// (and close to the pixels generated); the same seed gives the same bytes and another seed other
// bytes; the spec's bounds are errors that name file, line, column and key; the mock charges
// prefill per image so the real engine's TTFT against it grows with images.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "load/RequestFactory.h"
#include "metrics/MetricCatalogue.h"
#include "spec/SpecIO.h"
#include "workload/SyntheticImages.h"
#include "workload/WorkloadPlan.h"
#ifdef SWEEPBENCH_TEST_QIMAGE
#include <QImage>
#endif
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QTest>
#include <cmath>

using namespace sb;

namespace {

WorkloadSpec imageWorkload(int count, int width, int height, ImageFormat format, qint64 seed)
{
    WorkloadSpec w;
    w.inputTokens = 16;
    w.outputTokens = 4;
    w.seed = seed;
    w.images = ImageSpec{count, width, height, format};
    return w;
}

// The body of request `ticket` as a factory on a plan with these images builds it.
QByteArray requestBytes(const WorkloadSpec &w, int ticket, bool warmup = false)
{
    ServerSpec s;
    s.model = QStringLiteral("m");
    const ServerTarget target = resolveTarget(QStringLiteral("http://127.0.0.1:9"), Endpoint::Chat);
    RequestFactory f(s, target, w, "tag");
    f.usePlan(std::make_shared<const WorkloadPlan>(w, FillerMap()), warmup);
    return f.build(ticket);
}

QJsonArray contentParts(const QByteArray &request)
{
    const QByteArray body = request.mid(request.indexOf("\r\n\r\n") + 4);
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    return o.value(QStringLiteral("messages")).toArray().at(0).toObject().value(QStringLiteral("content")).toArray();
}

QByteArray specText(const QString &workloadExtra, const QString &serverExtra = {})
{
    return QStringLiteral("servers:\n  - name: a\n    url: http://127.0.0.1:9\n    model: m\n%1"
                          "workload:\n  input_tokens: 16\n%2"
                          "sweep:\n  concurrency: [1]\n")
        .arg(serverExtra, workloadExtra)
        .toUtf8();
}

} // namespace

class TestImages : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void requestCarriesDecodableImages_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("mime");
        QTest::newRow("png") << int(ImageFormat::Png) << QStringLiteral("image/png");
        QTest::newRow("jpeg") << int(ImageFormat::Jpeg) << QStringLiteral("image/jpeg");
    }
    void requestCarriesDecodableImages()
    {
#ifndef SWEEPBENCH_TEST_QIMAGE
        QSKIP("built without Qt Gui: no image decoders to check against");
#else
        QFETCH(int, format);
        QFETCH(QString, mime);
        const WorkloadSpec w = imageWorkload(3, 61, 37, ImageFormat(format), 7); // sides no multiple of 8
        const QJsonArray parts = contentParts(requestBytes(w, 5));
        QCOMPARE(parts.size(), 4);
        QCOMPARE(parts.at(0).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("text"));
        // the prompt's lead: the request number's 10 digits, spaced
        QVERIFY(QRegularExpression(QStringLiteral("^\\d( \\d){9} \\S")).match(parts.at(0).toObject().value(QStringLiteral("text")).toString()).hasMatch());
        const ImagePool pool(*w.images, 7);
        for (int k = 1; k <= 3; ++k) {
            const QJsonObject part = parts.at(k).toObject();
            QCOMPARE(part.value(QStringLiteral("type")).toString(), QStringLiteral("image_url"));
            const QString url = part.value(QStringLiteral("image_url")).toObject().value(QStringLiteral("url")).toString();
            const QString prefix = QStringLiteral("data:%1;base64,").arg(mime);
            QVERIFY2(url.startsWith(prefix), qPrintable(url.left(40)));
            const QByteArray file = QByteArray::fromBase64(url.mid(prefix.size()).toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
            QVERIFY(!file.isEmpty());
            const QImage image = QImage::fromData(file);
            QVERIFY2(!image.isNull(), "Qt cannot decode the image");
            QCOMPARE(image.size(), QSize(61, 37));
            // The decoded pixels are the generated ones (exactly for PNG, closely for JPEG).
            const int index = pool.pick(5, false, k - 1);
            QCOMPARE(file, pool.file(index));
            const std::vector<std::uint8_t> px = syntheticPixels(7, index, 61, 37);
            double error = 0;
            for (int y = 0; y < 37; ++y)
                for (int x = 0; x < 61; ++x) {
                    const QRgb c = image.pixel(x, y);
                    const std::size_t at = (std::size_t(y) * 61 + std::size_t(x)) * 3;
                    error += std::abs(qRed(c) - px[at]) + std::abs(qGreen(c) - px[at + 1]) + std::abs(qBlue(c) - px[at + 2]);
                }
            error /= 61.0 * 37 * 3;
            if (format == int(ImageFormat::Png))
                QCOMPARE(error, 0.0);
            else
                QVERIFY2(error < 6, qPrintable(QStringLiteral("mean error %1 per channel").arg(error)));
        }
#endif
    }

    void sizesUpToTheBounds()
    {
#ifndef SWEEPBENCH_TEST_QIMAGE
        QSKIP("built without Qt Gui: no image decoders to check against");
#else
        const ImagePool big(ImageSpec{1, 1024, 768, ImageFormat::Jpeg}, 1);
        QCOMPARE(QImage::fromData(big.file(0)).size(), QSize(1024, 768));
        QVERIFY(big.size() >= 1 && big.size() <= 32);
        const ImagePool small(ImageSpec{2, kMinImageSide, kMinImageSide, ImageFormat::Png}, 1);
        QCOMPARE(small.size(), 32); // small images: a full pool
        QCOMPARE(QImage::fromData(small.file(31)).size(), QSize(8, 8));
#endif
    }

    void seedDecidesTheBytes()
    {
        const WorkloadSpec a = imageWorkload(2, 32, 32, ImageFormat::Png, 11);
        QCOMPARE(requestBytes(a, 3), requestBytes(a, 3));
        const WorkloadSpec b = imageWorkload(2, 32, 32, ImageFormat::Png, 12);
        QVERIFY(contentParts(requestBytes(a, 3)).at(1) != contentParts(requestBytes(b, 3)).at(1));
        // requests of a phase spread over the pool; warmup draws its own
        QSet<QString> seen;
        for (int t = 0; t < 40; ++t)
            seen.insert(contentParts(requestBytes(a, t)).at(1).toObject().value(QStringLiteral("image_url")).toObject().value(QStringLiteral("url")).toString());
        QVERIFY2(seen.size() > 10, qPrintable(QString::number(seen.size())));
        // without a plan (prompt calibration probes) the content stays a string
        ServerSpec s;
        s.model = QStringLiteral("m");
        const RequestFactory plain(s, resolveTarget(QStringLiteral("http://127.0.0.1:9"), Endpoint::Chat), a, "tag");
        QVERIFY(QJsonDocument::fromJson(plain.body(0)).object().value(QStringLiteral("messages")).toArray().at(0).toObject().value(QStringLiteral("content")).isString());
    }

    void specRoundTripAndErrors()
    {
        const SpecLoadResult ok = loadSpecText(specText(QStringLiteral("  images: {count: 2, width: 320, height: 240, format: jpeg}\n")), QStringLiteral("s.yaml"));
        QVERIFY(ok.ok());
        QCOMPARE(*ok.spec->workload.images, (ImageSpec{2, 320, 240, ImageFormat::Jpeg}));
        const SpecLoadResult back = loadSpecText(saveSpecYaml(*ok.spec));
        QVERIFY(back.ok());
        QCOMPARE(*back.spec->workload.images, *ok.spec->workload.images);

        const auto firstError = [](const SpecLoadResult &r) {
            for (const SpecDiagnostic &d : r.diagnostics)
                if (d.isError())
                    return d;
            return SpecDiagnostic();
        };
        SpecDiagnostic d = firstError(loadSpecText(specText(QStringLiteral("  images: {count: 2, width: 99999, height: 240}\n")), QStringLiteral("s.yaml")));
        QCOMPARE(d.keyPath, QStringLiteral("workload.images.width"));
        QCOMPARE(d.file, QStringLiteral("s.yaml"));
        QCOMPARE(d.line, 7);
        QVERIFY(d.column > 1);
        QVERIFY2(d.message.contains(QLatin1String("from 8 to 4096")), qPrintable(d.message));
        d = firstError(loadSpecText(specText(QStringLiteral("  images: {count: 0}\n"))));
        QCOMPARE(d.keyPath, QStringLiteral("workload.images.count"));
        QVERIFY2(d.message.contains(QLatin1String("from 1 to 16")), qPrintable(d.message));
        d = firstError(loadSpecText(specText(QStringLiteral("  images: {count: 16, width: 4096, height: 4096}\n"))));
        QCOMPARE(d.keyPath, QStringLiteral("workload.images"));
        QVERIFY2(d.message.contains(QLatin1String("pixels per request")), qPrintable(d.message));
        d = firstError(loadSpecText(specText(QStringLiteral("  images: {format: gif}\n"))));
        QCOMPARE(d.keyPath, QStringLiteral("workload.images.format"));
        QVERIFY2(d.message.contains(QLatin1String("png")) && d.message.contains(QLatin1String("jpeg")), qPrintable(d.message));
        d = firstError(loadSpecText(specText(QStringLiteral("  images: 3\n"))));
        QCOMPARE(d.keyPath, QStringLiteral("workload.images"));
        d = firstError(loadSpecText(specText(QStringLiteral("  images: {count: 1}\n"), QStringLiteral("    endpoint: completions\n")), QStringLiteral("s.yaml")));
        QCOMPARE(d.keyPath, QStringLiteral("servers[0].endpoint"));
        QCOMPARE(d.line, 5);
        QVERIFY2(d.message.contains(QLatin1String("completions endpoint takes no images")), qPrintable(d.message));
    }

    // The real engine against an embedded vLLM mock: each image costs prefill, so TTFT grows
    // with the images; records and the cell's metrics say how many images and bytes went out.
    void mockTtftGrowsWithImages()
    {
        const auto run = [](int images, QList<QJsonObject> *lines) {
            ServerSpec s;
            s.name = QStringLiteral("m");
            s.mock = QStringLiteral("vllm");
            s.model = QStringLiteral("demo-model");
            s.flavor = Flavor::Vllm;
            SweepSpec spec = sbtest::smallSpec({s}, {1}, 6);
            spec.workload.seed = 3;
            if (images > 0)
                spec.workload.images = ImageSpec{images, 64, 64, ImageFormat::Png};
            QTemporaryDir dir;
            const sbtest::RunResult r = sbtest::runSweep(spec, dir.path());
            [&] { QCOMPARE(r.exitCode, 0); }();
            const CellResult &cell = r.results.cells.at(0);
            if (lines)
                *lines = sbtest::readJsonLines(dir.filePath(cell.recordsPath));
            return cell;
        };
        QList<QJsonObject> lines;
        const CellResult none = run(0, nullptr);
        const CellResult four = run(4, &lines);
        QCOMPARE(four.completed, 6);
        const double without = none.metrics.value(tag::ttft).p50, with = four.metrics.value(tag::ttft).p50;
        // 4 images × 256 tokens × 0.04 ms a prefill token: about 41 ms more
        QVERIFY2(with - without > 25, qPrintable(QStringLiteral("TTFT %1 ms without images, %2 ms with").arg(without).arg(with)));
        QVERIFY(!none.metrics.contains(tag::imageCount));
        // the server's prompt_tokens count the images too: not an input length gone wrong
        QVERIFY2(!four.warnings.join(QLatin1Char('\n')).contains(QLatin1String("measured input length")), qPrintable(four.warnings.join(QLatin1Char('\n'))));
        QVERIFY(four.metrics.value(tag::inputLength).avg > 4 * 256);
        QCOMPARE(four.metrics.value(tag::imageCount).avg, 4.0);
        QVERIFY(four.metrics.value(tag::imageBytes).min > 4 * 64 * 64); // noise barely compresses
        QCOMPARE(lines.size(), 6);
        for (const QJsonObject &l : lines) {
            QCOMPARE(l.value(QStringLiteral("images")).toInt(), 4);
            QVERIFY(l.value(QStringLiteral("image_bytes")).toInteger() > 4 * 64 * 64);
        }
    }
};

QTEST_GUILESS_MAIN(TestImages)
#include "tst_images.moc"
