// zlib's gzip file API (gzopen, gzwrite, gzread): the results' JSON Lines files are gzip
// streams. zlib's header shares nothing with ICU's, so Swift may import it next to Foundation.
#include <zlib.h>
