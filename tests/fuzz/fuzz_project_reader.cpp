// A .sysid file as File > Open and `sysid fit PROJECT` read it (loadProject), then turned back
// into JSON text as Save and the autosave do. The file is written into a private folder that links
// the bundled examples' data files, so the seeds' data paths exist and the reader gets past them.
// ProjectError is the one documented outcome of a bad file; any other exception escapes and is a
// finding.
#include "engine/project/Project.h"
#include "engine/project/ProjectError.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Folder {
    fs::path path;
    Folder()
    {
        std::string pattern = (fs::temp_directory_path() / "sysid-fuzz-project-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            std::abort();
        path = pattern;
        const fs::path examples = fs::path(SYSID_SOURCE_DIR) / "resources" / "examples";
        for (const auto& entry : fs::directory_iterator(examples))
            fs::create_symlink(entry.path(), path / entry.path().filename());
    }
    ~Folder()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const Folder& folder()
{
    static const Folder instance;
    return instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fs::path file = folder().path / "fuzz.sysid";
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        if (!out)
            std::abort();
    }
    try {
        const sysid::project::Project project = sysid::project::loadProject(file.string());
        (void)sysid::project::projectToJson(project, folder().path.string()).dump(2);
    } catch (const sysid::project::ProjectError&) {
    }
    return 0;
}
