// What the Arrow C stream export of a table's rows copies: it scans the table through a SQL
// session (as the Python module's TableResult.__arrow_c_stream__ does), exports every batch with
// ExportBatchStream and compares each exported buffer's address with the floe buffers of the
// batch behind it. A buffer exported at floe's own address is handed over; any other would have
// been copied. Also counts the heap bytes the export itself allocated (glibc's mallinfo2 around
// each get_next, less what the scan allocated for the batch). Usage:
//   floe_bench_arrow_export WAREHOUSE DB.TABLE   (a hadoop catalog folder)

#include <fmt/core.h>
#include <malloc.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>

#include "floe/batch/arrow_c_stream.h"
#include "floe/sql/session.h"

using namespace floe;

namespace {

struct Counts {
  int64_t exported_bytes = 0;
  int64_t copied_bytes = 0;
  int64_t buffers = 0;
};

// The floe buffers' start addresses of an array and its children.
void FloeAddresses(const Array& array, std::set<const void*>& out) {
  for (const Buffer* buffer : {&array.validity(), &array.values(), &array.data()}) {
    if (buffer->data() != nullptr) out.insert(buffer->data());
  }
  for (const Array& child : array.children()) FloeAddresses(child, out);
}

// Bytes of the exported buffers of `array` (whose floe twin is `twin`), by the C Data
// Interface's layout.
void Walk(const ArrowArray& exported, const Array& twin, const std::set<const void*>& floe,
          Counts& counts) {
  const int64_t n = exported.length + exported.offset;
  auto count = [&](int i, int64_t bytes) {
    if (i >= exported.n_buffers || exported.buffers[i] == nullptr || bytes == 0) return;
    counts.exported_bytes += bytes;
    ++counts.buffers;
    if (!floe.contains(exported.buffers[i])) counts.copied_bytes += bytes;
  };
  if (twin.validity().data() != nullptr) count(0, (n + 7) / 8);
  const DataType& type = *twin.type();
  if (type.kind() == TypeKind::kBool) {
    count(1, (n + 7) / 8);
  } else if (type.is_fixed_width()) {
    count(1, n * type.byte_width());
  } else if (type.kind() == TypeKind::kString || type.kind() == TypeKind::kBinary ||
             type.kind() == TypeKind::kList || type.kind() == TypeKind::kMap) {
    count(1, (n + 1) * 4);
    if (type.is_binary_like()) {
      count(2, static_cast<const int32_t*>(exported.buffers[1])[n]);
    }
  }
  for (int64_t c = 0; c < exported.n_children; ++c) {
    Walk(*exported.children[c], twin.child(static_cast<int>(c)), floe, counts);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr, "usage: floe_bench_arrow_export WAREHOUSE DB.TABLE\n");
    return 2;
  }
  sql::Session session({.embedded_warehouse = ""});
  auto run = [&](const std::string& text) {
    auto result = session.ExecuteSql(text);
    if (!result) {
      fmt::print(stderr, "{}: {}\n", text, result.error().ToString());
      std::exit(1);
    }
    return std::move(*result);
  };
  if (!session.Open()) return 1;
  run(fmt::format("CREATE CATALOG bench WITH ('type'='iceberg', 'catalog-type'='hadoop', "
                  "'warehouse'='{}')",
                  argv[1]));
  run("SET 'execution.runtime-mode' = 'batch'");
  sql::StatementResult result = run(fmt::format("SELECT * FROM bench.{}", argv[2]));

  std::optional<RecordBatch> last;  // the batch the stream exported last
  int64_t scan_allocated = 0;
  sql::RowStream& rows = *result.rows;
  ArrowArrayStream stream;
  ExportBatchStream(result.schema,
                    [&]() -> Result<std::optional<RecordBatch>> {
                      const size_t before = mallinfo2().uordblks;
                      auto batch = rows.Next();
                      if (batch && *batch) last = **batch;
                      scan_allocated += static_cast<int64_t>(mallinfo2().uordblks) -
                                        static_cast<int64_t>(before);
                      return batch;
                    },
                    &stream);
  Counts counts;
  int64_t batches = 0, total_rows = 0, export_allocated = 0;
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    ArrowArray array;
    const int64_t scan_before = scan_allocated;
    const size_t before = mallinfo2().uordblks;
    if (stream.get_next(&stream, &array) != 0) {
      fmt::print(stderr, "get_next: {}\n", stream.get_last_error(&stream));
      return 1;
    }
    export_allocated += static_cast<int64_t>(mallinfo2().uordblks) -
                        static_cast<int64_t>(before) - (scan_allocated - scan_before);
    if (array.release == nullptr) break;
    std::set<const void*> floe_buffers;
    for (const Array& column : last->columns()) FloeAddresses(column, floe_buffers);
    for (int c = 0; c < last->num_columns(); ++c) {
      Walk(*array.children[c], last->column(c), floe_buffers, counts);
    }
    ++batches;
    total_rows += array.length;
    array.release(&array);
  }
  stream.release(&stream);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(
      "arrow export    {} rows {} batches {:.2f} s: {} bytes exported in {} buffers, {} bytes "
      "copied; the export's own heap: {} bytes ({:.1f} per batch)\n",
      total_rows, batches, seconds, counts.exported_bytes, counts.buffers, counts.copied_bytes,
      export_allocated, batches ? static_cast<double>(export_allocated) / batches : 0.0);
  return counts.copied_bytes == 0 ? 0 : 1;
}
