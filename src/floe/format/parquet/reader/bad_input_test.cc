// Broken Parquet files through the batch reader: the deliberately malformed files of
// parquet-testing (bad_data/) and Impala (bad_*, corrupt_*), each with the outcome it must have,
// and real files damaged page by page (column chunks cut short, bits flipped in page headers,
// levels, dictionary and data pages). A damaged file either fails with an error naming the file,
// the column and an offset, or, where the format cannot see the damage (a flipped value without a
// CRC), reads.
// Never a crash (the sanitizer build runs these), and never a large allocation: the largest single
// allocation while reading is recorded through a replaced global operator new (AddressSanitizer's
// malloc hooks in the sanitizer build).

// g++ 12 at -O3 inlines the malloc() of the replaced operator new below into the standard
// allocators and then reports their sized deletes as mismatched; both sides are replaced here and
// do match.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/footer.h"
#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/source.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace {

// The largest single allocation since the last reset.
std::atomic<size_t> largest_allocation{0};

void RecordAllocation(size_t size) {
  size_t seen = largest_allocation.load(std::memory_order_relaxed);
  while (size > seen && !largest_allocation.compare_exchange_weak(seen, size)) {
  }
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer owns operator new (and checks that deletes match it): watch through its hooks
// (declared here: g++ ships the runtime without its interface headers).
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void*, size_t),
                                                         void (*)(const volatile void*));
namespace {
void OnMalloc(const volatile void*, size_t size) { RecordAllocation(size); }
void OnFree(const volatile void*) {}
[[maybe_unused]] const int hooks_installed =
    __sanitizer_install_malloc_and_free_hooks(OnMalloc, OnFree);
}  // namespace
#else
void* operator new(size_t size) {
  RecordAllocation(size);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  RecordAllocation(size);
  return std::malloc(size == 0 ? 1 : size);
}
// Not inlined: g++ would pair the inlined free() with its built-in notion of operator new and
// report a mismatch.
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
#endif

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;

// What reading a damaged file may allocate at once: a few read windows and pages of these small
// files, far below what the sizes in a damaged header could ask for.
constexpr size_t kMaxAllocation = 16 << 20;

struct Outcome {
  Status status;
  std::string json;  // the rows as JSON lines, when read
};

Outcome ReadAll(std::unique_ptr<RandomAccessSource> source) {
  Outcome out;
  auto file = FileReader::Open(std::move(source));
  if (!file) {
    out.status = std::unexpected(file.error());
    return out;
  }
  ReadOptions options;
  options.batch_rows = 100;
  auto reader = ParquetBatchReader::Open(std::move(*file), options);
  if (!reader) {
    out.status = std::unexpected(reader.error());
    return out;
  }
  auto batches = (*reader)->ReadAll();
  if (!batches) {
    out.status = std::unexpected(batches.error());
    return out;
  }
  for (const RecordBatch& batch : *batches) AppendJsonLines(batch, out.json);
  return out;
}

std::vector<std::byte> Bytes(const fs::path& path) {
  std::string text = testing::ReadFileOrDie(path);
  const auto* p = reinterpret_cast<const std::byte*>(text.data());
  return std::vector<std::byte>(p, p + text.size());
}

// The deliberately broken files. `error` lists what the message must contain besides the file
// name (the column, the offset); empty when the file is decodable and must read like DuckDB.
struct BadFile {
  const char* path;
  std::vector<std::string> error;
  const char* why;
};

const std::vector<BadFile>& BadFiles() {
  static const std::vector<BadFile> files = {
      {"parquet-testing/bad_data/ARROW-GH-41317.parquet",
       {"column timestamp_us_no_tz", "pages end after 0 of the 3 values"},
       "a row group whose columns differ in length"},
      {"parquet-testing/bad_data/ARROW-GH-41321.parquet",
       {"column int64", "page at offset 1313", "bit width 254"},
       "levels fewer than the page's values; the index bit width is garbage"},
      {"parquet-testing/bad_data/ARROW-GH-43605.parquet",
       {},
       "dictionary indices with RLE bit width 0: valid RLE, every index is 0, and the dictionary "
       "has an entry 0; DuckDB reads the same 21186 zeros. (The file's flaw, no "
       "dictionary_page_offset although the chunk starts with a dictionary page, is one readers "
       "accept: the first page says what it is.)"},
      {"parquet-testing/bad_data/ARROW-GH-45185.parquet",
       {"column x.list.element", "page at offset 4", "first repetition level is 1"},
       "repetition levels starting with 1"},
      {"parquet-testing/bad_data/ARROW-GH-47662.parquet",
       {"column flba_field", "page at offset 4", "the page has 364 bytes"},
       "a required column whose pages hold definition levels and fewer values"},
      {"parquet-testing/bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet",
       {"column region_key", "range [466, 591)"},
       "chunks beyond the end of the file (the negative dictionary size is never reached)"},
      {"parquet-testing/bad_data/ARROW-RS-GH-6229-LEVELS.parquet",
       {"column outer.list.item.c", "page at offset 19 holds 21 values"},
       "a page with more values than its chunk"},
      {"parquet-testing/bad_data/PARQUET-1481.parquet",
       {"schema leaf 1 ('Handle')", "physical type -7"},
       "a corrupted schema type"},
      {"impala/testdata/data/bad_codec.parquet",
       {"column id", "codec UNKNOWN(5000)"},
       "codec 5000"},
      {"impala/testdata/data/bad_column_metadata.parquet",
       {"column int_array.list.element", "page at offset 133 holds 100 values"},
       "chunk metadata with fewer values than the pages (DuckDB refuses it too)"},
      {"impala/testdata/data/bad_compressed_dict_page_size.parquet",
       {"column col", "page at offset 4", "snappy"},
       "a dictionary page of 0 compressed bytes"},
      {"impala/testdata/data/bad_compressed_size.parquet",
       {"column _c0", "range [4, 1000004)"},
       "a chunk size beyond the file (DuckDB reads the row, ignoring the size)"},
      {"impala/testdata/data/bad_dict_page_offset.parquet",
       {"column _c0", "range [10000, 10047)"},
       "a dictionary page offset beyond the file"},
      {"impala/testdata/data/bad_magic_number.parquet", {"no PAR1 magic"}, "no magic"},
      {"impala/testdata/data/bad_metadata_len.parquet",
       {"footer length 4294967295"},
       "a footer longer than the file"},
      {"impala/testdata/data/bad_parquet_data.parquet",
       {},
       "nothing wrong for floe or DuckDB: parquet-mr 1.2.5 left the dictionary page header out of "
       "the chunk size, which readers allow for that writer; the three rows Impala's README "
       "lists read"},
      {"impala/testdata/data/bad_rle_literal_count.parquet",
       {"column c", "page at offset 40", "dictionary indices"},
       "an RLE literal run of count 0"},
      {"impala/testdata/data/bad_rle_repeat_count.parquet",
       {"column c", "page at offset 27", "dictionary indices"},
       "an RLE repeated run of count 0"},
      {"impala/testdata/data/corrupt_footer_len_decr.parquet",
       {"FileMetaData", "offset 24"},
       "a footer length one short"},
      {"impala/testdata/data/corrupt_footer_len_incr.parquet",
       {"footer length 446"},
       "a footer length past the file"},
  };
  return files;
}

// Every file of bad_data/ and every Impala bad_*/corrupt_* Parquet file is listed above.
TEST(BadInput, EveryBrokenCorpusFileIsListed) {
  std::set<std::string> listed;
  for (const BadFile& file : BadFiles()) listed.insert(file.path);
  int found = 0;
  for (const char* dir : {"parquet-testing/bad_data", "impala/testdata/data"}) {
    for (const auto& entry : fs::directory_iterator(testing::TestDataDir() / dir)) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() != ".parquet") continue;
      if (std::string(dir).starts_with("impala") && !name.starts_with("bad_") &&
          !name.starts_with("corrupt_")) {
        continue;
      }
      EXPECT_TRUE(listed.contains(std::string(dir) + "/" + name)) << name;
      ++found;
    }
  }
  EXPECT_EQ(found, static_cast<int>(BadFiles().size()));
}

TEST(BadInput, BrokenCorpusFilesFailNamingFileAndColumnOrReadLikeDuckDb) {
  const bool duck = testing::PeerInstalled("duckdb");
  for (const BadFile& bad : BadFiles()) {
    SCOPED_TRACE(std::string(bad.path) + ": " + bad.why);
    const fs::path path = testing::TestDataDir() / bad.path;
    largest_allocation = 0;
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, OpenLocalFile(path));
    Outcome read = ReadAll(std::move(source));
    EXPECT_LE(largest_allocation.load(), kMaxAllocation);
    if (bad.error.empty()) {
      FLOE_ASSERT_OK(read.status);
      EXPECT_GT(largest_allocation.load(), 0u) << "allocations are not being watched";
      if (!duck) continue;
      FLOE_ASSERT_OK_AND_ASSIGN(
          std::string expected,
          testing::RunPeer("duck", {"SELECT * FROM read_parquet('" + path.string() + "')"}));
      EXPECT_EQ(read.json, expected);
      continue;
    }
    ASSERT_FALSE(read.status) << "reads, but is broken";
    const std::string message = read.status.error().message();
    EXPECT_NE(message.find(path.filename().string()), std::string::npos) << message;
    for (const std::string& part : bad.error) {
      EXPECT_NE(message.find(part), std::string::npos) << message << "\n lacks: " << part;
    }
  }
}

// A region of a column chunk's bytes, and what it holds.
struct Region {
  uint64_t begin = 0;
  uint64_t end = 0;
  std::string kind;  // "page header", "levels", "dictionary page", "data page"
};

struct Chunk {
  size_t row_group = 0;
  size_t column = 0;
  std::string path;  // the column's dotted path, as errors name it
  uint64_t begin = 0;
  uint64_t end = 0;
  std::vector<Region> regions;
};

// The chunks of a file and the regions of their pages, from the page headers.
std::vector<Chunk> Chunks(const std::vector<std::byte>& file, const fs::path& name) {
  auto reader = FileReader::Open(MakeMemorySource(file, name.filename().string()));
  EXPECT_TRUE(reader.has_value());
  if (!reader) return {};
  std::vector<Chunk> chunks;
  const FileMetaData& m = (*reader)->metadata();
  for (size_t g = 0; g < m.row_groups.size(); ++g) {
    for (size_t c = 0; c < m.row_groups[g].columns.size(); ++c) {
      const ColumnMetaData& meta = *m.row_groups[g].columns[c].meta_data;
      const ColumnDescriptor& column = (*reader)->schema().columns()[c];
      Chunk chunk{g, c, column.dotted_path(), 0, 0, {}};
      chunk.begin = static_cast<uint64_t>(meta.data_page_offset);
      if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0) {
        chunk.begin = std::min(chunk.begin, static_cast<uint64_t>(*meta.dictionary_page_offset));
      }
      chunk.end = chunk.begin + static_cast<uint64_t>(meta.total_compressed_size);
      for (uint64_t at = chunk.begin; at < chunk.end;) {
        auto header = DecodePageHeader(std::span(file).subspan(at, chunk.end - at));
        EXPECT_TRUE(header.has_value());
        if (!header) break;
        const PageHeader& h = header->header;
        const uint64_t body = at + header->size;
        const uint64_t end = body + static_cast<uint64_t>(h.compressed_page_size);
        chunk.regions.push_back({at, body, "page header"});
        if (h.type == PageType::kDictionaryPage) {
          chunk.regions.push_back({body, end, "dictionary page"});
        } else if (h.type == PageType::kDataPageV2) {
          const auto& v2 = *h.data_page_header_v2;
          const uint64_t levels = static_cast<uint64_t>(v2.repetition_levels_byte_length) +
                                  static_cast<uint64_t>(v2.definition_levels_byte_length);
          if (levels > 0) chunk.regions.push_back({body, body + levels, "levels"});
          chunk.regions.push_back({body + levels, end, "data page"});
        } else if (meta.codec == Codec::kUncompressed && column.max_definition_level > 0 &&
                   column.max_repetition_level == 0 && end - body >= 4) {
          // v1: the definition levels' length, then the levels, in front of the values.
          uint32_t length = 0;
          std::memcpy(&length, file.data() + body, 4);
          const uint64_t levels = std::min<uint64_t>(4 + length, end - body);
          chunk.regions.push_back({body, body + levels, "levels"});
          chunk.regions.push_back({body + levels, end, "data page"});
        } else {
          chunk.regions.push_back({body, end, "data page"});
        }
        at = end;
      }
      chunks.push_back(std::move(chunk));
    }
  }
  return chunks;
}

// A footer for `metadata` after the first `pages_end` bytes of file.
std::vector<std::byte> WithFooter(const std::vector<std::byte>& file, uint64_t pages_end,
                                  const FileMetaData& metadata) {
  std::vector<std::byte> out(file.begin(), file.begin() + static_cast<ptrdiff_t>(pages_end));
  std::vector<std::byte> footer = EncodeFileMetaData(metadata);
  out.insert(out.end(), footer.begin(), footer.end());
  const auto length = static_cast<uint32_t>(footer.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(length >> (8 * i)));
  for (char c : std::string("PAR1")) out.push_back(static_cast<std::byte>(c));
  return out;
}

// Reads a damaged copy; it must fail naming the file and column, or read when `may_read`.
void ExpectCleanOutcome(std::vector<std::byte> damaged, const std::string& name, const Chunk& chunk,
                        bool may_read, const std::string& what, int& errors) {
  largest_allocation = 0;
  Outcome read = ReadAll(MakeMemorySource(std::move(damaged), name));
  EXPECT_LE(largest_allocation.load(), kMaxAllocation) << what;
  if (read.status) {
    EXPECT_TRUE(may_read) << what << ": reads";
    return;
  }
  ++errors;
  const std::string message = read.status.error().message();
  EXPECT_NE(message.find(name), std::string::npos) << what << ": " << message;
  EXPECT_NE(message.find("column " + chunk.path), std::string::npos) << what << ": " << message;
  EXPECT_NE(message.find("offset"), std::string::npos) << what << ": " << message;
}

// Real files of several encodings, codecs and page versions.
const char* const kDamagedFiles[] = {
    "alltypes_plain.parquet",                          // dictionaries, v1, uncompressed
    "alltypes_plain.snappy.parquet",                   // snappy
    "datapage_v2.snappy.parquet",                      // v2, delta, a list
    "nested_lists.snappy.parquet",                     // repetition levels
    "delta_encoding_optional_column.parquet",          // delta encodings, v2
    "delta_length_byte_array.parquet",                 // zstd, v2
    "byte_stream_split.zstd.parquet",                  // byte stream split
    "concatenated_gzip_members.parquet",               // gzip
    "lz4_raw_compressed.parquet",                      // lz4 raw
    "rle_boolean_encoding.parquet",                    // RLE booleans, gzip
    "datapage_v1-snappy-compressed-checksum.parquet",  // CRCs
};

fs::path DataFile(const char* name) {
  return testing::TestDataDir() / "parquet-testing" / "data" / name;
}

// Each chunk cut short at many offsets (the footer rewritten with the shorter size, and no page
// index): every cut is an error that names the file, the column and an offset.
TEST(BadInput, ChunksCutShortFailNamingFileAndColumn) {
  for (const char* name : kDamagedFiles) {
    SCOPED_TRACE(name);
    const std::vector<std::byte> file = Bytes(DataFile(name));
    FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData metadata, ParseFooter(file));
    for (auto& group : metadata.row_groups) {
      for (auto& column : group.columns) {
        column.offset_index_offset.reset();
        column.column_index_offset.reset();
      }
    }
    uint64_t pages_end = 0;
    for (const Chunk& chunk : Chunks(file, name)) pages_end = std::max(pages_end, chunk.end);
    FLOE_ASSERT_OK(ReadAll(MakeMemorySource(WithFooter(file, pages_end, metadata), name)).status);
    int errors = 0, cuts = 0;
    for (const Chunk& chunk : Chunks(file, name)) {
      const uint64_t size = chunk.end - chunk.begin;
      const uint64_t step = std::max<uint64_t>(1, size / 40);
      for (uint64_t cut = 0; cut < size; cut += step) {
        FileMetaData shorter = metadata;
        shorter.row_groups[chunk.row_group].columns[chunk.column].meta_data->total_compressed_size =
            static_cast<int64_t>(cut);
        ExpectCleanOutcome(WithFooter(file, pages_end, shorter), name, chunk, false,
                           fmt::format("{} cut to {} bytes", chunk.path, cut), errors);
        ++cuts;
      }
    }
    EXPECT_EQ(errors, cuts);
  }
}

// Bits flipped in each kind of page region. Headers, levels and compressed pages mostly fail; a
// flipped value of an uncompressed page without a CRC cannot be seen and reads.
TEST(BadInput, FlippedBitsInPagesFailNamingFileAndColumnOrRead) {
  for (const char* name : kDamagedFiles) {
    SCOPED_TRACE(name);
    const std::vector<std::byte> file = Bytes(DataFile(name));
    std::map<std::string, std::pair<int, int>> tally;  // kind: flips, errors
    for (const Chunk& chunk : Chunks(file, name)) {
      for (const Region& region : chunk.regions) {
        const uint64_t size = region.end - region.begin;
        const uint64_t step = std::max<uint64_t>(1, size / 16);
        for (uint64_t at = region.begin; at < region.end; at += step) {
          for (int bit : {0, 5}) {
            std::vector<std::byte> damaged = file;
            damaged[at] ^= static_cast<std::byte>(1 << bit);
            auto& [flips, errors] = tally[region.kind];
            ++flips;
            ExpectCleanOutcome(
                std::move(damaged), name, chunk, true,
                fmt::format("{}: {} bit {} of byte {}", chunk.path, region.kind, bit, at), errors);
          }
        }
      }
    }
    for (const auto& [kind, counts] : tally) {
      std::printf("%s: %s: %d flips, %d errors\n", name, kind.c_str(), counts.first, counts.second);
    }
    EXPECT_GT(tally["page header"].second, 0);
  }
}

// The file with the page header at `at` (of `old_size` bytes, in `chunk`) replaced by `header`:
// the later offsets move by the size difference, the page index and bloom filters are dropped.
std::vector<std::byte> WithPageHeader(const std::vector<std::byte>& file, FileMetaData metadata,
                                      const Chunk& chunk, uint64_t at, uint64_t old_size,
                                      const PageHeader& header, uint64_t pages_end) {
  const std::vector<std::byte> encoded = EncodePageHeader(header);
  const int64_t delta = static_cast<int64_t>(encoded.size()) - static_cast<int64_t>(old_size);
  std::vector<std::byte> out(file.begin(), file.begin() + static_cast<ptrdiff_t>(at));
  out.insert(out.end(), encoded.begin(), encoded.end());
  out.insert(out.end(), file.begin() + static_cast<ptrdiff_t>(at + old_size),
             file.begin() + static_cast<ptrdiff_t>(pages_end));
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    for (size_t c = 0; c < metadata.row_groups[g].columns.size(); ++c) {
      ColumnChunk& column = metadata.row_groups[g].columns[c];
      ColumnMetaData& meta = *column.meta_data;
      column.offset_index_offset.reset();
      column.column_index_offset.reset();
      meta.bloom_filter_offset.reset();
      if (meta.data_page_offset > static_cast<int64_t>(at)) meta.data_page_offset += delta;
      if (meta.dictionary_page_offset && *meta.dictionary_page_offset > static_cast<int64_t>(at)) {
        *meta.dictionary_page_offset += delta;
      }
      if (g == chunk.row_group && c == chunk.column) meta.total_compressed_size += delta;
    }
  }
  return WithFooter(out, out.size(), metadata);
}

// Page headers rewritten with sizes and counts no page can have: each is an error naming the file
// and column (or, for counts that do not matter to the values read, a read), and none makes the
// reader allocate what the header asks for.
TEST(BadInput, HugeSizesAndCountsInPageHeadersAreRefusedWithoutTheirAllocation) {
  constexpr int32_t kHuge = 400 << 20;  // below PageReader::kMaxPageSize
  constexpr int32_t kMax = INT32_MAX;
  for (const char* name : kDamagedFiles) {
    SCOPED_TRACE(name);
    const std::vector<std::byte> file = Bytes(DataFile(name));
    FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData metadata, ParseFooter(file));
    const std::vector<Chunk> chunks = Chunks(file, name);
    uint64_t pages_end = 0;
    for (const Chunk& chunk : chunks) pages_end = std::max(pages_end, chunk.end);
    int variants = 0, errors = 0;
    for (const Chunk& chunk : chunks) {
      for (const Region& region : chunk.regions) {
        if (region.kind != "page header") continue;
        FLOE_ASSERT_OK_AND_ASSIGN(
            DecodedPageHeader decoded,
            DecodePageHeader(std::span(file).subspan(region.begin, chunk.end - region.begin)));
        std::vector<std::pair<std::string, PageHeader>> damaged;
        auto with = [&](std::string what, auto change) {
          PageHeader h = decoded.header;
          change(h);
          damaged.emplace_back(std::move(what), h);
        };
        with("uncompressed size", [&](PageHeader& h) { h.uncompressed_page_size = kHuge; });
        with("uncompressed size max", [&](PageHeader& h) { h.uncompressed_page_size = kMax; });
        with("compressed size", [&](PageHeader& h) { h.compressed_page_size = kMax; });
        with("negative sizes", [&](PageHeader& h) {
          h.compressed_page_size = -1;
          h.uncompressed_page_size = -1;
        });
        with("values", [&](PageHeader& h) {
          if (h.data_page_header) h.data_page_header->num_values = kMax;
          if (h.data_page_header_v2) h.data_page_header_v2->num_values = kMax;
          if (h.dictionary_page_header) h.dictionary_page_header->num_values = kMax;
        });
        with("negative values", [&](PageHeader& h) {
          if (h.data_page_header) h.data_page_header->num_values = -1;
          if (h.data_page_header_v2) h.data_page_header_v2->num_values = -1;
          if (h.dictionary_page_header) h.dictionary_page_header->num_values = -1;
        });
        if (decoded.header.data_page_header_v2) {
          with("level lengths", [&](PageHeader& h) {
            h.data_page_header_v2->definition_levels_byte_length = kMax;
            h.data_page_header_v2->repetition_levels_byte_length = kMax;
          });
          with("nulls and rows", [&](PageHeader& h) {
            h.data_page_header_v2->num_nulls = kMax;
            h.data_page_header_v2->num_rows = kMax;
          });
        }
        for (const auto& [what, header] : damaged) {
          ++variants;
          // Counts the reader does not rely on (v2 rows; nulls, which the levels give) may read.
          ExpectCleanOutcome(
              WithPageHeader(file, metadata, chunk, region.begin, decoded.size, header, pages_end),
              name, chunk, what == "nulls and rows",
              fmt::format("{}: page header at {}: {}", chunk.path, region.begin, what), errors);
        }
      }
    }
    EXPECT_GT(errors, variants / 2);
  }
}

}  // namespace
}  // namespace floe::parquet
