#include <QCoreApplication>
#include <cstdio>
int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    std::printf("sweepbench %s\n", SWEEPBENCH_VERSION);
    return 0;
}
