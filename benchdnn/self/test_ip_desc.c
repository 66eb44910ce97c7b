/* Inner product descriptors: the implicit rules, printing and its round
 * trip, and the rejection of bad descriptors with a message that names the
 * offending text. */
#include "self_util.h"

#include <string.h>

#include "common/benchdnn.h"
#include "ip/ip.h"

static char err[BENCH_ERR_LEN];

static int parse(const char *text, ip_desc_t *d) {
    err[0] = '\0';
    return ip_desc_parse_try(text, d, err);
}

static int parse_any(const char *text, void *d, char *message) {
    return ip_desc_parse_try(text, d, message);
}

static void print_any(const void *d, int canonical, char *buf, size_t len) {
    ip_desc_print(d, canonical, buf, len);
}

static int equal(const void *a, const void *b) {
    return memcmp(a, b, sizeof(ip_desc_t)) == 0;
}

/* Parses `text`, checks its printed form (short or canonical) and that
 * the printed form parses back to the same descriptor. */
static int prints_as(const char *text, int canonical, const char *expected) {
    return desc_prints_as(parse_any, print_any, equal, sizeof(ip_desc_t), text,
                          canonical, expected);
}

static int rejected(const char *text, const char *named) {
    return desc_rejected(parse_any, sizeof(ip_desc_t), text, named, 0);
}

static void test_implicit_rules(void) {
    ip_desc_t d;
    CHECK(parse("ic3oc5", &d) == 0);
    CHECK(d.mb == 2 && d.ic == 3 && d.oc == 5 && d.ndims == 2);
    CHECK(d.id == 1 && d.ih == 1 && d.iw == 1 && d.name[0] == '\0');

    /* ih alone: 2D spatial with iw = ih. */
    CHECK(parse("mb4ic3ih7oc2", &d) == 0);
    CHECK(d.mb == 4 && d.ndims == 4 && d.ih == 7 && d.iw == 7 && d.id == 1);
    /* id: 3D spatial, the others copy it unless given. */
    CHECK(parse("ic3id4iw2oc2", &d) == 0);
    CHECK(d.ndims == 5 && d.id == 4 && d.ih == 4 && d.iw == 2);
    /* iw alone: 1D spatial. */
    CHECK(parse("ic3iw6oc2", &d) == 0);
    CHECK(d.ndims == 3 && d.iw == 6 && d.ih == 1);
    /* Underscores and entry order do not matter; names with quotes. */
    CHECK(parse("oc1000_mb112ic2048_ih1iw1n\"resnet:fc\"", &d) == 0);
    CHECK(d.mb == 112 && d.ic == 2048 && d.oc == 1000 && d.ndims == 4);
    CHECK(strcmp(d.name, "resnet:fc") == 0);
}

static void test_printing(void) {
    CHECK(prints_as("ic3oc5", 0, "ic3oc5"));
    CHECK(prints_as("ic3oc5", 1, "mb2ic3oc5"));
    CHECK(prints_as("mb4ic3ih7oc2", 0, "mb4ic3ih7iw7oc2"));
    CHECK(prints_as("ic3id4iw2oc2n\"x\"", 0, "ic3id4ih4iw2oc2n\"x\""));
    CHECK(prints_as("ic3iw6oc2", 0, "ic3iw6oc2"));
}

static void test_rejections(void) {
    CHECK(rejected("ic3", "ic and oc are required"));
    CHECK(rejected("oc3", "ic and oc are required"));
    CHECK(rejected("ic0oc3", "'ic' needs a positive integer"));
    CHECK(rejected("icXoc3", "'ic' needs a positive integer"));
    CHECK(rejected("ic3ic4oc3", "'ic' needs a positive integer, given once"));
    CHECK(rejected("ic3oc4kh3", "unknown entry at 'kh3'"));
    CHECK(rejected("ic3oc4n\"open", "unmatched quote"));
    CHECK(rejected("ic3oc4n\"a b\"", "contains a quote or a space"));
}

int main(void) {
    test_implicit_rules();
    test_printing();
    test_rejections();
    return check_failures() != 0;
}
