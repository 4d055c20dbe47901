# Precompiled headers: most of a translation unit's compile time here is GCC parsing the same Qt
# and standard headers again (a test file spent 7 of its 18 s in the front end). One precompiled
# set per library, and one shared by every test executable of a kind, cut a cold build by about
# half (the README's test section has the figures). SWEEPBENCH_PCH=OFF builds without them, which is
# also how to check that every file includes what it uses.
option(SWEEPBENCH_PCH "Precompile the common Qt and standard headers" ON)

# Headers nearly every file of core includes; each is stable (system headers only, never ours,
# so editing a project header never invalidates the precompiled set).
set(SWEEPBENCH_PCH_CORE
    <QByteArray> <QDateTime> <QDir> <QFile> <QFileInfo> <QHash> <QJsonArray> <QJsonDocument>
    <QJsonObject> <QList> <QMap> <QObject> <QRegularExpression> <QSet> <QString> <QStringList>
    <QThread> <QTimer> <QUrl>
    <algorithm> <cmath> <functional> <limits> <memory> <optional> <vector>)
set(SWEEPBENCH_PCH_WIDGETS
    <QApplication> <QChart> <QComboBox> <QFormLayout> <QHBoxLayout> <QLabel> <QLineEdit>
    <QPainter> <QPushButton> <QValueAxis> <QVBoxLayout> <QWidget>)
set(SWEEPBENCH_PCH_TEST
    <QProcess> <QSignalSpy> <QTcpServer> <QTcpSocket> <QTemporaryDir> <QTest>)

# target: a library or executable of our own; kinds: the header sets it gets (CORE, WIDGETS, TEST).
function(sweepbench_precompile target)
  if(NOT SWEEPBENCH_PCH)
    return()
  endif()
  set(headers)
  foreach(kind ${ARGN})
    list(APPEND headers ${SWEEPBENCH_PCH_${kind}})
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# Test executables reuse one precompiled set built by `owner` instead of each building its own
# (~15 s and ~200 MB apiece). GCC takes a precompiled header only when the flags and macros
# match, so the owner is compiled exactly like the tests that reuse it.
function(sweepbench_reuse_precompiled target owner)
  if(SWEEPBENCH_PCH)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  endif()
endfunction()
