/* tsr_version: the header's version, fixed when the library is built. */
#include "tessera.h"

const tsr_version_t *tsr_version(void) {
    static const tsr_version_t version = {TSR_VERSION_MAJOR, TSR_VERSION_MINOR,
                                          TSR_VERSION_PATCH};
    return &version;
}
