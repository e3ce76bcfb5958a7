#include "engine/eval/CompiledModelCache.h"

#include "engine/eval/CompiledModelCodec.h"
#include "engine/eval/NativeCompiler.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

#include <elf.h>
#include <link.h>

namespace sysid::eval {

namespace {

// The ELF build ID (ld --build-id) of the object this code is linked into: it changes with every
// change to sysid, so compiled models are never read by a build that would compile them otherwise.
std::string buildIdentity()
{
    static const std::string identity = [] {
        struct Search {
            std::uintptr_t address;
            std::string found;
        } search{reinterpret_cast<std::uintptr_t>(&buildIdentity), {}};
        dl_iterate_phdr(
            [](dl_phdr_info* info, std::size_t, void* data) {
                auto& s = *static_cast<Search*>(data);
                bool contains = false;
                for (int i = 0; i < info->dlpi_phnum; ++i) {
                    const auto& h = info->dlpi_phdr[i];
                    const std::uintptr_t start = info->dlpi_addr + h.p_vaddr;
                    if (h.p_type == PT_LOAD && s.address >= start && s.address < start + h.p_memsz)
                        contains = true;
                }
                if (!contains)
                    return 0;
                for (int i = 0; i < info->dlpi_phnum; ++i) {
                    const auto& h = info->dlpi_phdr[i];
                    if (h.p_type != PT_NOTE)
                        continue;
                    const char* p = reinterpret_cast<const char*>(info->dlpi_addr + h.p_vaddr);
                    const char* end = p + h.p_memsz;
                    while (p + sizeof(ElfW(Nhdr)) <= end) {
                        ElfW(Nhdr) note;
                        std::memcpy(&note, p, sizeof note);
                        const char* name = p + sizeof note;
                        const char* desc = name + ((note.n_namesz + 3) & ~3u);
                        const char* next = desc + ((note.n_descsz + 3) & ~3u);
                        if (next > end)
                            break;
                        if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0)
                            s.found.assign(desc, note.n_descsz);
                        p = next;
                    }
                }
                return 1;
            },
            &search);
        return search.found;
    }();
    return identity;
}

bool switchedOff()
{
    const char* value = std::getenv("SYSID_MODEL_CACHE");
    return value && (std::string_view(value) == "off" || std::string_view(value) == "0");
}

void appendSized(std::string& out, std::string_view text)
{
    const std::uint64_t n = text.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out.append(text);
}

}  // namespace

CompiledModelCache::CompiledModelCache(const std::string& text, const std::string& source, CompileOptions options)
{
    const std::string& identity = buildIdentity();
    if (identity.empty() || switchedOff())
        return;
    appendSized(key_, "sysid compiled model 1");
    appendSized(key_, identity);
    appendSized(key_, options.secondDerivatives ? "second derivatives" : "first derivatives");
    appendSized(key_, source);
    appendSized(key_, text);
    name_ = cacheStem(key_);
}

std::shared_ptr<CompiledModelSource> CompiledModelCache::find() const
{
    if (key_.empty())
        return nullptr;
    const std::string entry = readCacheFile(nativeCacheDirectory() / (name_ + ".model"));
    // The key, the encoded model and the hash of the latter: an altered byte anywhere is a miss.
    const std::size_t hashSize = cacheStem({}).size();
    if (entry.size() < key_.size() + hashSize || entry.compare(0, key_.size(), key_) != 0)
        return nullptr;
    const std::string_view payload = std::string_view(entry).substr(key_.size(), entry.size() - key_.size() - hashSize);
    if (entry.compare(entry.size() - hashSize, hashSize, cacheStem(payload)) != 0)
        return nullptr;
    return decodeCompiledModel(payload);
}

void CompiledModelCache::keep(const CompiledModelSource& model) const
{
    if (!key_.empty()) {
        const std::string payload = encodeCompiledModel(model);
        replaceCacheFile(nativeCacheDirectory() / (name_ + ".model"), key_ + payload + cacheStem(payload));
    }
}

}  // namespace sysid::eval
