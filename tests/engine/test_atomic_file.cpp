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
#include <utility>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
        QCOMPARE(snapshot(target.parent_path()).size(), std::size_t{1});  // no temporary left
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
                QVERIFY2(!contains(e.message, ".tmp"), e.what());
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
            QVERIFY2(contains(e.what(), target + ": the folder "), e.what());
            QVERIFY2(contains(e.what(), "does not exist"), e.what());
        }
        QVERIFY(!fs::exists(target));
    }

    // A link planted where an older writer put its temporary (PATH.tmp) or at any other name
    // beside the target is never followed: the link's target stays as it was.
    void plantedLinkIsNotFollowed()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path target = folder / "out.json";
        const fs::path victim = folder / "victim.txt";
        core::writeFileAtomically(victim.string(), "precious\n");
        fs::create_symlink(victim, folder / "out.json.tmp");
        core::writeFileAtomically(target.string(), "{}\n");
        QCOMPARE(slurp(victim), std::string("precious\n"));
        QCOMPARE(slurp(target), std::string("{}\n"));
        QVERIFY(fs::is_symlink(folder / "out.json.tmp"));
    }

    // A link, a FIFO, a device or a folder given as the target is refused, not replaced by a
    // regular file.
    void targetThatIsNotARegularFileIsRefused()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path victim = folder / "victim.txt";
        core::writeFileAtomically(victim.string(), "precious\n");
        fs::create_symlink(victim, folder / "link.csv");
        QVERIFY(::mkfifo((folder / "pipe.csv").c_str(), 0600) == 0);
        fs::create_directories(folder / "inside" / "child");
        const auto before = snapshot(folder);
        for (const auto& [name, kind] : {std::pair{"link.csv", "a symbolic link"},
                                         std::pair{"pipe.csv", "a named pipe"}, std::pair{"inside", "a folder"}}) {
            try {
                core::writeFileAtomically((folder / name).string(), "new\n");
                QFAIL("replaced something that is not a regular file");
            } catch (const core::FileWriteError& e) {
                QVERIFY2(contains(e.message, kind), e.what());
                QVERIFY2(contains(e.message, "writes only regular files"), e.what());
            }
            QVERIFY_THROWS_EXCEPTION(core::FileWriteError, core::checkCanWrite((folder / name).string()));
        }
        QCOMPARE(snapshot(folder), before);
        QVERIFY(fs::is_symlink(folder / "link.csv"));
        QCOMPARE(fs::status(folder / "pipe.csv").type(), fs::file_type::fifo);
        QCOMPARE(slurp(victim), std::string("precious\n"));
        // A device: /dev/null stays the device it is.
        QVERIFY_THROWS_EXCEPTION(core::FileWriteError, core::writeFileAtomically("/dev/null", "x"));
        QCOMPARE(fs::status("/dev/null").type(), fs::file_type::character);
    }

    // Writers racing for one file, in processes of their own: every one succeeds, the file is one
    // writer's whole text at the end, and no temporary is left.
    void concurrentWritersAllSucceed()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path target = folder / "result.json";
        constexpr int writers = 50;
        auto textOf = [](int w) {
            return std::string(20000 + 97 * static_cast<std::size_t>(w), static_cast<char>('A' + w % 26));
        };
        std::vector<pid_t> children;
        for (int w = 0; w < writers; ++w) {
            const pid_t pid = ::fork();
            QVERIFY(pid >= 0);
            if (pid == 0) {
                int status = 0;
                try {
                    for (int round = 0; round < 4; ++round)
                        core::writeFileAtomically(target.string(), textOf(w));
                } catch (...) {
                    status = 1;
                }
                ::_exit(status);
            }
            children.push_back(pid);
        }
        int failures = 0;
        for (const pid_t pid : children) {
            int status = 0;
            ::waitpid(pid, &status, 0);
            failures += WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
        }
        QCOMPARE(failures, 0);
        const std::string final = slurp(target);
        bool whole = false;
        for (int w = 0; w < writers; ++w)
            whole = whole || final == textOf(w);
        QVERIFY2(whole, "the file is not one writer's whole text");
        QCOMPARE(snapshot(folder).size(), std::size_t{1});
    }

    // A writer killed (SIGKILL) in the middle of its writes leaves the target either as it was or
    // a whole new text, never a part.
    void killedWriterLeavesNoHalfFile()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const fs::path target = folder / "big.csv";
        const std::string old(1 << 20, 'o');
        const std::string fresh(3 << 20, 'n');
        core::writeFileAtomically(target.string(), old);
        constexpr int kills = 5;
        for (int attempt = 0; attempt < kills; ++attempt) {
            const pid_t pid = ::fork();
            QVERIFY(pid >= 0);
            if (pid == 0) {
                for (int round = 0;; ++round)
                    core::writeFileAtomically(target.string(), round % 2 ? fresh : old);
            }
            ::usleep(20000 + 7000 * static_cast<unsigned>(attempt));
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            const std::string now = slurp(target);
            QVERIFY2(now == old || now == fresh, "a killed writer left a part of a file");
        }
        // The bytes go to a file without a name until they are whole; only a kill in the instant
        // between naming it and the rename could leave a named temporary, at most one per kill.
        QVERIFY(snapshot(folder).size() <= 1 + kills);
    }

    void permissionsOfNewAndReplacedFiles()
    {
        QTemporaryDir dir;
        const fs::path target = fs::path(dir.path().toStdString()) / "secret.json";
        core::writeFileAtomically(target.string(), "1\n");
        fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
        core::writeFileAtomically(target.string(), "2\n");
        QCOMPARE(fs::status(target).permissions(), fs::perms::owner_read | fs::perms::owner_write);
        // A new file gets the usual permissions (0666 less the umask), not a temporary's.
        const mode_t mask = ::umask(022);
        ::umask(mask);
        const fs::path fresh = fs::path(dir.path().toStdString()) / "fresh.json";
        core::writeFileAtomically(fresh.string(), "3\n");
        QCOMPARE(static_cast<unsigned>(fs::status(fresh).permissions()), 0666u & ~static_cast<unsigned>(mask));
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
