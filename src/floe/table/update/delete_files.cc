#include "floe/table/update/delete_files.h"

namespace floe::table {

DeleteFiles& DeleteFiles::DeleteFile(std::string path) {
  data_removal().paths.insert(std::move(path));
  return *this;
}

DeleteFiles& DeleteFiles::DeleteFromRowFilter(expr::ExprPtr filter) {
  data_removal().row_filter = filter;
  delete_removal().row_filter = std::move(filter);
  return *this;
}

DeleteFiles& DeleteFiles::ValidateFilesExist() {
  data_removal().fail_missing_paths = true;
  return *this;
}

}  // namespace floe::table
