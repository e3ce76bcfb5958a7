// core::writeFileAtomically, the one writer of project, result, CSV, export and autosave files:
// the target is either the old file or the whole new one, no temporary is left behind, and a
// failure names the file.
#include "TextTestSupport.h"

#include "engine/core/AtomicFile.h"

#include <QtTest>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

using namespace sysid;
namespace fs = std::filesystem;
using sysid::test::contains;
using sysid::test::slurp;

namespace {

// A failed write must leave the folder as it was: the same names with the same contents.
std::map<std::string, std::string> snapshot(const fs::path& folder)
{
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::directory_iterator(folder))
        files[entry.path().filename().string()] = entry.is_regular_file() ? slurp(entry.path()) : "<folder>";
    return files;
}

// Lowers the file size limit for one scope, so that write() fails with EFBIG (as on a full
// disk) even for root, for whom permissions do not bite.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        previousHandler_ = std::signal(SIGXFSZ, SIG_IGN);
        ::getrlimit(RLIMIT_FSIZE, &previous_);
        rlimit lowered = previous_;
        lowered.rlim_cur = bytes;
        ok_ = ::setrlimit(RLIMIT_FSIZE, &lowered) == 0;
    }
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &previous_);
        std::signal(SIGXFSZ, previousHandler_);
    }
    bool ok() const { return ok_; }

private:
    rlimit previous_{};
    void (*previousHandler_)(int) = nullptr;
    bool ok_ = false;
};

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

private slots:
    void writesAndReplaces()
    {
        QTemporaryDir dir;
        const fs::path target = fs::path(dir.path().toStdString()) / "out.txt";
        core::writeFileAtomically(target.string(), "first\n");
        QCOMPARE(slurp(target), std::string("first\n"));
        fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
        core::writeFileAtomically(target.string(), "second, longer\n");
        QCOMPARE(slurp(target), std::string("second, longer\n"));
        QVERIFY(!fs::exists(core::temporaryPathFor(target.string())));
        // A replaced file keeps its permissions.
        QCOMPARE(fs::status(target).permissions(),
                 fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
        core::writeFileAtomically(target.string(), "");
        QCOMPARE(slurp(target), std::string());
    }

    void failingWriteLeavesTheTargetUntouched()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path target = folder / "out.txt";
        core::writeFileAtomically(target.string(), "old\n");
        const auto before = snapshot(folder);
        {
            FileSizeLimit limit(16);
            if (!limit.ok())
                QSKIP("cannot lower the file size limit here");
            try {
                core::writeFileAtomically(target.string(), std::string(4096, 'x'));
                QFAIL("a write beyond the file size limit succeeded");
            } catch (const core::FileWriteError& e) {
                QCOMPARE(e.path, target.string());
                QVERIFY2(contains(e.what(), target.string()), e.what());
                QVERIFY2(contains(e.message, "cannot write the temporary file"), e.what());
            }
        }
        QCOMPARE(snapshot(folder), before);
    }

    void missingFolderNamesTheFile()
    {
        QTemporaryDir dir;
        const std::string target = (fs::path(dir.path().toStdString()) / "no" / "such" / "out.txt").string();
        try {
            core::writeFileAtomically(target, "x");
            QFAIL("wrote into a folder that does not exist");
        } catch (const core::FileWriteError& e) {
            QCOMPARE(e.path, target);
            QVERIFY2(contains(e.what(), target + ": cannot create the temporary file"), e.what());
        }
        QVERIFY(!fs::exists(target));
    }

    // PATH.tmp is a folder: the temporary cannot be created (this bites as root too).
    void temporaryThatCannotBeCreated()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path target = folder / "out.txt";
        core::writeFileAtomically(target.string(), "old\n");
        fs::create_directory(core::temporaryPathFor(target.string()));
        const auto before = snapshot(folder);
        QVERIFY_THROWS_EXCEPTION(core::FileWriteError, core::writeFileAtomically(target.string(), "new\n"));
        QCOMPARE(snapshot(folder), before);
    }

    // The target is a folder: the rename fails and the temporary goes again.
    void renameThatFails()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path target = folder / "inside";
        fs::create_directories(target / "child");
        const auto before = snapshot(folder);
        try {
            core::writeFileAtomically(target.string(), "new\n");
            QFAIL("replaced a folder");
        } catch (const core::FileWriteError& e) {
            QVERIFY2(contains(e.message, "cannot replace the file"), e.what());
        }
        QCOMPARE(snapshot(folder), before);
    }

    void readOnlyFolder()
    {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "ro";
        fs::create_directory(folder);
        const fs::path target = folder / "out.txt";
        core::writeFileAtomically(target.string(), "old\n");
        fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
        const bool writable = ::access(folder.c_str(), W_OK) == 0;
        const auto before = snapshot(folder);
        bool threw = false;
        if (!writable) {
            try {
                core::writeFileAtomically(target.string(), "new\n");
            } catch (const core::FileWriteError& e) {
                threw = contains(e.what(), target.string());
            }
        }
        const auto after = snapshot(folder);
        fs::permissions(folder, fs::perms::owner_all);
        if (writable)
            QSKIP("the folder stays writable (running as root); the tests above cover the failures");
        QVERIFY(threw);
        QCOMPARE(after, before);
    }

    void emptyPathIsAnError() { QVERIFY_THROWS_EXCEPTION(core::FileWriteError, core::writeFileAtomically("", "x")); }
};

QTEST_APPLESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
