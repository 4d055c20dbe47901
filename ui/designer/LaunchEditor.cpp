#include "designer/LaunchEditor.h"
#include "designer/LaunchVariantsEditor.h"
#include "designer/SpinBoxes.h"
#include "launch/CommandLine.h"
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sb::ui {

QList<QPair<QString, QString>> parseEnvLines(const QString &text, QString *error)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*\\z"));
    QList<QPair<QString, QString>> env;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        const QString key = eq < 0 ? line : line.left(eq).trimmed();
        if (eq < 0 || !name.match(key).hasMatch()) {
            if (error)
                *error = QObject::tr("line %1: expected NAME=value (NAME: letters, digits, '_'), got “%2”").arg(i + 1).arg(line.left(60));
            return {};
        }
        env.append({key, line.mid(eq + 1)});
    }
    return env;
}

QString envLinesText(const QList<QPair<QString, QString>> &env)
{
    QStringList lines;
    for (const auto &[name, value] : env)
        lines << name + QLatin1Char('=') + value;
    return lines.join(QLatin1Char('\n'));
}

LaunchEditor::LaunchEditor(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_group = new QGroupBox(tr("Launch the server"));
    m_group->setObjectName(QStringLiteral("launchGroup"));
    m_group->setCheckable(true);
    m_group->setToolTip(tr("SweepBench starts this server itself. Started before the server's first cell and stopped after its last, and on every other way out "
                           "(cancel, error, a killed SweepBench): no server process outlives the sweep. Its output goes "
                           "to OUT/servers/NAME.log."));
    outer->addWidget(m_group);
    auto *form = new QFormLayout(m_group);
    form->setVerticalSpacing(2);

    m_command = new QLineEdit;
    m_command->setObjectName(QStringLiteral("launchCommand"));
    m_command->setPlaceholderText(QStringLiteral("vllm serve /models/tiny --port {port}"));
    m_command->setToolTip(tr("The server's command line, run without a shell: words split on blanks, quote with ' or \". "
                             "{port} is the port SweepBench picks (or the fixed one below); the URL follows it."));
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_port = new QSpinBox;
    m_port->setObjectName(QStringLiteral("launchPort"));
    m_port->setRange(0, 99999); // the validator names an out-of-range port
    m_port->setSpecialValueText(tr("a free port"));
    m_port->setToolTip(tr("The port filled in for {port}; \"a free port\" picks an unused loopback port at each start"));
    m_env = new QPlainTextEdit;
    m_env->setObjectName(QStringLiteral("launchEnv"));
    m_env->setPlaceholderText(QStringLiteral("VLLM_SERVER_DEV_MODE=1"));
    m_env->setToolTip(tr("Added to SweepBench's own environment, one NAME=value per line. Values of credential-like "
                         "names (HF_TOKEN) are kept out of results and logs."));
    m_env->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_env->setFixedHeight(m_env->fontMetrics().lineSpacing() * 3 + 12);
    m_env->setTabChangesFocus(true);
    m_readyPath = new QLineEdit;
    m_readyPath->setObjectName(QStringLiteral("launchReadyPath"));
    m_readyPath->setPlaceholderText(QStringLiteral("/health"));
    m_readyPath->setToolTip(tr("Polled until it answers 2xx; the server's cells start then"));
    m_readyTimeout = secondsBox();
    m_readyTimeout->setObjectName(QStringLiteral("launchReadyTimeout"));
    m_readyTimeout->setToolTip(tr("How long the server may take to be ready (a large model loads for minutes)"));
    m_stopSignal = new QComboBox;
    m_stopSignal->setObjectName(QStringLiteral("launchStopSignal"));
    m_stopSignal->addItems(launchSignalNames());
    m_stopSignal->setToolTip(tr("Sent to the server's whole process group to stop it"));
    m_grace = secondsBox();
    m_grace->setObjectName(QStringLiteral("launchGrace"));
    m_grace->setToolTip(tr("Then SIGKILL to the whole group"));
    m_test = new QPushButton(tr("Test launch…"));
    m_test->setObjectName(QStringLiteral("testLaunch"));
    m_test->setToolTip(tr("Start the server once as the sweep would, show its log until it is ready, then stop it"));


    m_commandErrorLine = FieldErrors::messageLine();
    m_envErrorLine = FieldErrors::messageLine();
    form->addRow(tr("Command"), m_errors.bind(QStringLiteral("launch.command"), m_command));
    form->addRow(QString(), m_commandErrorLine);
    form->addRow(tr("Port"), m_errors.bind(QStringLiteral("launch.port"), m_port));
    form->addRow(tr("Environment"), m_errors.bind(QStringLiteral("launch.env"), m_env));
    form->addRow(QString(), m_envErrorLine);
    form->addRow(tr("Ready path"), m_errors.bind(QStringLiteral("launch.ready.path"), m_readyPath));
    form->addRow(tr("Ready within"), m_errors.bind(QStringLiteral("launch.ready.timeout_seconds"), m_readyTimeout));
    form->addRow(tr("Stop signal"), m_errors.bind(QStringLiteral("launch.stop.signal"), m_stopSignal));
    form->addRow(tr("Stop grace"), m_errors.bind(QStringLiteral("launch.stop.grace_seconds"), m_grace));
    m_variants = new LaunchVariantsEditor;
    form->addRow(tr("Variants"), m_variants);
    auto *general = FieldErrors::messageLine();
    form->addRow(general);
    m_errors.bindLabel(QStringLiteral("launch"), general);
    form->addRow(QString(), m_test);

    const auto changed = [this] {
        if (m_loading)
            return;
        validateLocal();
        Q_EMIT edited();
    };
    connect(m_group, &QGroupBox::toggled, this, changed);
    connect(m_command, &QLineEdit::textEdited, this, changed);
    connect(m_readyPath, &QLineEdit::textEdited, this, changed);
    connect(m_env, &QPlainTextEdit::textChanged, this, changed);
    connect(m_port, &QSpinBox::valueChanged, this, changed);
    connect(m_readyTimeout, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_grace, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_stopSignal, &QComboBox::activated, this, changed);
    connect(m_test, &QPushButton::clicked, this, &LaunchEditor::testLaunchRequested);
    connect(m_variants, &LaunchVariantsEditor::edited, this, [this] {
        if (!m_loading)
            Q_EMIT edited();
    });
    setLaunch({});
}

void LaunchEditor::setLaunch(const LaunchSpec &l)
{
    m_loading = true;
    m_group->setChecked(l.enabled);
    const QString line = joinCommandLine(l.command);
    // Keep the text as typed while it still reads as the same argv (quoting styles differ).
    if (splitCommandLine(m_command->text()).argv != l.command) {
        m_command->setText(line);
        m_command->setCursorPosition(0); // the program, not the end of a long line
    }
    m_port->setValue(l.port);
    if (parseEnvLines(m_env->toPlainText(), nullptr) != l.env)
        m_env->setPlainText(envLinesText(l.env));
    if (m_readyPath->text() != l.readyPath)
        m_readyPath->setText(l.readyPath);
    m_readyTimeout->setValue(l.readyTimeoutS);
    m_stopSignal->setCurrentIndex(std::max(0, m_stopSignal->findText(l.stopSignal)));
    m_grace->setValue(l.graceS);
    m_variants->setLaunch(l);
    validateLocal();
    m_loading = false;
}

void LaunchEditor::applyTo(LaunchSpec &l) const
{
    l.enabled = m_group->isChecked();
    const CommandLineSplit split = splitCommandLine(m_command->text());
    if (split.error.isEmpty())
        l.command = split.argv;
    QString envError;
    const auto env = parseEnvLines(m_env->toPlainText(), &envError);
    if (envError.isEmpty())
        l.env = env;
    l.port = m_port->value();
    l.readyPath = m_readyPath->text().trimmed();
    l.readyTimeoutS = m_readyTimeout->value();
    l.stopSignal = m_stopSignal->currentText();
    l.graceS = m_grace->value();
    m_variants->applyTo(l);
}

bool LaunchEditor::hasLocalErrors() const
{
    return !m_commandError.isEmpty() || !m_envError.isEmpty() || (m_group->isChecked() && m_variants->hasLocalErrors());
}

void LaunchEditor::setServerName(const QString &name)
{
    m_variants->setServerName(name);
}

void LaunchEditor::validateLocal()
{
    m_commandError = splitCommandLine(m_command->text()).error;
    m_envError.clear();
    parseEnvLines(m_env->toPlainText(), &m_envError);
    if (!m_commandError.isEmpty())
        m_commandError = tr("✗ %1").arg(m_commandError);
    if (!m_envError.isEmpty())
        m_envError = tr("✗ %1").arg(m_envError);
    showLocalError(m_command, m_commandErrorLine, m_commandError);
    showLocalError(m_env, m_envErrorLine, m_envError);
    m_test->setEnabled(m_group->isChecked() && !hasLocalErrors() && !splitCommandLine(m_command->text()).argv.isEmpty());
}

void LaunchEditor::showDiagnostics(const QList<SpecDiagnostic> &diags, const QString &prefix)
{
    // The variants' errors are marked on their rows; the rest go beside their fields.
    QList<SpecDiagnostic> fields, variants;
    for (SpecDiagnostic d : diags) {
        QString rel = d.keyPath.mid(prefix.size());
        if (rel.startsWith(QLatin1Char('.')))
            rel.remove(0, 1);
        if (keyUnder(d.keyPath, prefix) && keyUnder(rel, QStringLiteral("launch.variants"))) {
            d.keyPath = rel;
            variants << d;
        } else {
            fields << d;
        }
    }
    m_errors.show(fields, prefix);
    m_variants->showDiagnostics(variants);
    validateLocal(); // a line that cannot be read stays marked over whatever the spec says
}

void LaunchEditor::showLocalError(QWidget *field, QLabel *line, const QString &error)
{
    line->setText(error);
    line->setToolTip(error);
    if (auto *frame = qobject_cast<FieldFrame *>(field->parentWidget()))
        frame->setState(error.isEmpty() ? QString() : QStringLiteral("error"));
}

} // namespace sb::ui
