#pragma once
// What a cell's server was ("server_info" in results.json): what the server says about itself
// (vLLM /version and /server_info, SGLang /get_server_info, llama.cpp /props, its /v1/models
// entry), as selected typed fields; the launch command and environment, secrets scrubbed; the
// process and its start for launched servers; the GPUs nvidia-smi lists; and, for a launch
// variant (spec/LaunchVariants.h), the spec's server and the variant's name. Every field is
// bounded where it is filled (launch/ServerIdentity) and again where it is read.
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

namespace sb {

struct SweepResults;

// Bounds of what a server's answers may put into one cell.
inline constexpr int kMaxServerInfoText = 256;     // one selected text field
inline constexpr int kMaxServerInfoExcerpt = 512;  // the raw excerpt of an answer that was not JSON
inline constexpr int kMaxServerInfoArgs = 48;      // selected settings
inline constexpr int kMaxServerInfoListed = 64;    // command arguments, env entries
inline constexpr int kMaxServerInfoGpus = 16;

// One identity route as asked: its status, or why its answer was not used.
struct ServerInfoRoute {
    QString path;
    int status = 0;      // 0 = no answer
    QString error;       // "not JSON", "answer larger than 65536 bytes", a transport error; empty = used
    QString excerpt;     // the start of an answer that could not be used (bounded, scrubbed)
    bool operator==(const ServerInfoRoute &) const = default;
};

struct GpuInfo {
    QString name;
    QString memoryTotal;   // as nvidia-smi prints it ("81559 MiB")
    QString driverVersion;
    bool operator==(const GpuInfo &) const = default;
};

struct ServerInfo {
    QString baseServer;    // the spec's server name (a variant's series adds [variant])
    QString variant;       // the launch variant's name; empty without variants
    QString flavor;
    QString version;       // vLLM /version, SGLang's version, llama.cpp's build_info
    QString model;         // the /v1/models id (or llama.cpp's model_path)
    QString modelRoot;     // the /v1/models root: the path or repository the weights came from
    qint64 maxModelLen = -1;
    QString ownedBy;
    QMap<QString, QString> args;  // selected settings the server reports (max_num_seqs, tp_size, n_ctx, ...)
    QList<ServerInfoRoute> routes;
    // Launched servers only.
    QStringList command;   // argv, credential values replaced by [redacted]
    QList<QPair<QString, QString>> env; // the launch's env, credential values replaced
    qint64 pid = -1;
    QDateTime processStartedAt;
    QList<GpuInfo> gpus;
    QString gpuError;      // why nvidia-smi gave nothing (not found, timed out, ...); empty when it answered
    QDateTime fetchedAt;   // when the routes were asked

    bool isEmpty() const { return *this == ServerInfo(); }
    bool operator==(const ServerInfo &) const = default;
};

QJsonObject toJson(const ServerInfo &info);
// Reads what toJson wrote; unknown keys are ignored, every text and list is cut to its bound.
ServerInfo serverInfoFromJson(const QJsonObject &o);

// Flags of a command, as compared: "--max-num-seqs 64" → {"--max-num-seqs": "64"}, a flag with no
// value → "" (the port and other {placeholders} are left out: they differ between runs).
QMap<QString, QString> commandFlags(const QStringList &argv);

// One sentence (empty when nothing differs) naming how the servers of two result sets differ in
// version or flags, per server name both hold: Compare and `sweepbench diff` print it.
// `servers` are (name, A's info, B's info).
struct ServerInfoPair {
    QString server;
    ServerInfo a, b;
};
QString serverDifferenceSentence(const QList<ServerInfoPair> &pairs, const QString &labelA, const QString &labelB);
// The same for two result sets: per series both hold, the first cell of each that asked its server.
QString serverDifferenceSentence(const SweepResults &a, const SweepResults &b, const QString &labelA, const QString &labelB);

} // namespace sb
