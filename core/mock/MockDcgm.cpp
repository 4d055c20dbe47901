#include "mock/MockDcgm.h"
#include "mock/MockScheduler.h"
#include "servermetrics/GpuTelemetry.h"
#include "servermetrics/PrometheusText.h"

namespace sb {

MockDcgm::MockDcgm() : m_startNs(MockServer::nowNs()) {}

void MockDcgm::onStep(const MockStepRecord &step)
{
    m_sequenceSeconds += double(step.batch) * double(step.endNs - step.startNs) / 1e9;
}

int MockDcgm::answer(const MockConfig &cfg, const MockScheduler &s, QByteArray *contentType, QByteArray *body) const
{
    if (cfg.dcgmGpus <= 0) {
        *contentType = "text/plain";
        *body = "404 page not found\n";
        return 404;
    }
    *contentType = "text/plain; version=0.0.4; charset=utf-8";
    const double seconds = double(MockServer::nowNs() - m_startNs) / 1e9;
    const int running = s.running();
    const double power = kIdleW + kWattsPerSequence * running;
    const double energyMj = kBootEnergyMj + 1000 * (kIdleW * seconds + kWattsPerSequence * m_sequenceSeconds);
    const double util = running > 0 ? 100 : 0;
    const double sm = cfg.maxBatch > 0 ? std::min(1.0, double(running) / cfg.maxBatch) : 0;
    const double fbMib = 16384 + s.cachedBlocks() / 8.0;
    struct Field {
        const char *name, *type, *help;
        double value;
    };
    QList<Field> fields{{dcgm::kGpuUtil, "gauge", "GPU utilization (in %).", util},
                        {dcgm::kFbUsed, "gauge", "Framebuffer memory used (in MiB).", fbMib},
                        {dcgm::kPower, "gauge", "Power draw (in W).", power},
                        {dcgm::kSmActive, "gauge", "The ratio of cycles an SM has at least 1 warp assigned (in %).", sm}};
    if (cfg.dcgmEnergyCounter)
        fields.append({dcgm::kEnergy, "counter", "Total energy consumption since boot (in mJ).", energyMj});
    QByteArray out;
    for (const Field &f : fields) {
        out += QByteArray("# HELP ") + f.name + ' ' + f.help + "\n# TYPE " + f.name + ' ' + f.type + '\n';
        for (int g = 0; g < cfg.dcgmGpus; ++g) {
            const QByteArray n = QByteArray::number(g);
            out += QByteArray(f.name) + "{gpu=\"" + n + "\",UUID=\"GPU-5eb0c0de-0000-4000-8000-" + n.rightJustified(12, '0')
                   + "\",pci_bus_id=\"00000000:" + QByteArray::number(g + 16, 16).rightJustified(2, '0') + ":00.0\",device=\"nvidia" + n
                   + "\",modelName=\"" + cfg.dcgmModel.toUtf8() + "\",Hostname=\"" + cfg.host.toUtf8() + "\"} " + formatMetricValue(f.value) + '\n';
        }
    }
    *body = out;
    return 200;
}

} // namespace sb
