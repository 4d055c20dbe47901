#pragma once
// Generated dataset files, shared by tests/core/tst_datasets and the dataset loading benchmark
// (tests/bench/dataset_bench.cpp) so both measure the same shape of file.
#include <QByteArray>

namespace sbtest {

// A ShareGPT array of `conversations` two-turn conversations (about 80 bytes each). Entry i
// starts on line shareGptEntryLine(i); entry `badEntry` (if any) has a number for its prompt,
// which the loader must refuse naming that line.
inline int shareGptEntryLine(int i) { return 2 + 3 * i; }
inline QByteArray shareGptConversations(int conversations, int badEntry = -1)
{
    QByteArray json = "[\n";
    json.reserve(qsizetype(conversations) * 96 + 4);
    for (int i = 0; i < conversations; ++i) {
        const QByteArray n = QByteArray::number(i);
        const QByteArray prompt = i == badEntry ? QByteArray("3") : "\"Question " + n + ": why is the sky blue?\"";
        json += "{\"conversations\": [\n {\"from\": \"human\", \"value\": " + prompt + "},\n {\"from\": \"gpt\", \"value\": \"Answer " + n
                + ": scattering.\"}]}";
        json += i + 1 < conversations ? ",\n" : "\n";
    }
    json += "]\n";
    return json;
}

} // namespace sbtest
