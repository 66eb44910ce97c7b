/* Matmul descriptors: shapes with batch broadcast and the implied dst,
 * printing and its round trip, --strides values, and the rejection of bad
 * descriptors with a message that names the offending text. */
#include "self_util.h"

#include <string.h>

#include "common/benchdnn.h"
#include "matmul/matmul.h"

static char err[BENCH_ERR_LEN];

static int parse(const char *text, matmul_desc_t *d) {
    err[0] = '\0';
    return matmul_desc_parse_try(text, d, err);
}

static int parse_any(const char *text, void *d, char *message) {
    return matmul_desc_parse_try(text, d, message);
}

static void print_any(const void *d, int canonical, char *buf, size_t len) {
    matmul_desc_print(d, canonical, buf, len);
}

static int equal(const void *a, const void *b) {
    const matmul_desc_t *x = a, *y = b;
    return memcmp(x->dst, y->dst, sizeof(x->dst)) == 0 &&
           strcmp(x->name, y->name) == 0;
}

/* Parses `text`, checks its printed form (short or canonical) and that
 * the printed form parses back to the same descriptor. */
static int prints_as(const char *text, int canonical, const char *expected) {
    return desc_prints_as(parse_any, print_any, equal, sizeof(matmul_desc_t),
                          text, canonical, expected);
}

static int rejected(const char *text, const char *named) {
    return desc_rejected(parse_any, sizeof(matmul_desc_t), text, named, 1);
}

static void test_shapes(void) {
    matmul_desc_t d;
    CHECK(parse("2x3:3x4", &d) == 0);
    CHECK(d.ndims == 2 && !d.has_dst && d.name[0] == '\0');
    CHECK(d.dst[0] == 2 && d.dst[1] == 4);

    /* Batch dims of 1 broadcast; dst takes the larger. */
    CHECK(parse("2x3x4x5:1x3x5x6", &d) == 0);
    CHECK(d.ndims == 4 && d.dst[0] == 2 && d.dst[1] == 3 && d.dst[2] == 4 &&
          d.dst[3] == 6);
    CHECK(parse("1x7x2x3:5x1x3x4:5x7x2x4_n\"heads\"", &d) == 0);
    CHECK(d.has_dst && d.dst[0] == 5 && d.dst[1] == 7);
    CHECK(strcmp(d.name, "heads") == 0);
    CHECK(parse("2x1x1x2x3x4:1x2x2x1x4x3nsix", &d) == 0);
    CHECK(d.ndims == 6 && strcmp(d.name, "six") == 0);
}

static void test_printing(void) {
    CHECK(prints_as("2x3:3x4", 0, "2x3:3x4"));
    CHECK(prints_as("2x3:3x4", 1, "2x3:3x4:2x4"));
    CHECK(prints_as("1x3x4:6x4x5:6x3x5", 0, "1x3x4:6x4x5:6x3x5"));
    CHECK(prints_as("2x3:3x4_n\"a\"", 0, "2x3:3x4n\"a\""));
}

static void test_strides(void) {
    matmul_strides_t s;
    CHECK(matmul_strides_parse_try("8x4x1:24x6x1:21x7x1", &s, err) == 0);
    CHECK(s.has[0] && s.has[1] && s.has[2] && s.n[2] == 3);
    CHECK(s.v[0][0] == 8 && s.v[1][1] == 6 && s.v[2][2] == 1);
    CHECK(matmul_strides_parse_try("::8x1", &s, err) == 0);
    CHECK(!s.has[0] && !s.has[1] && s.has[2] && s.v[2][0] == 8);
    CHECK(matmul_strides_parse_try("4xa::", &s, err) == -1 &&
          strstr(err, "'4xa::'"));
    CHECK(matmul_strides_parse_try("1:1:1:1", &s, err) == -1 &&
          strstr(err, "more than three"));
}

static void test_rejections(void) {
    CHECK(rejected("2x3", "expected SRC:WEI"));
    CHECK(rejected("2x3:4x5", "src K"));
    CHECK(rejected("2x3x4:3x4x5", "batch dims must be equal or 1"));
    CHECK(rejected("3x4:4x5:3x6", "dst dims differ"));
    CHECK(rejected("2x3x4:4x5", "same rank"));
    CHECK(rejected("3:3", "same rank"));
    CHECK(rejected("2x0:0x3", "positive integers"));
    CHECK(rejected("2xx3:3x4", "positive integers"));
    CHECK(rejected("2x3:3x4:", "positive integers"));
    CHECK(rejected("2x3:3x4:2x4:2x4", "more than three"));
    CHECK(rejected("1x1x1x1x1x1x2x3:1x1x1x1x1x1x3x4", "at most 6"));
    CHECK(rejected("2x3:3x4k", "expected SRC:WEI"));
    CHECK(rejected("2x3:3x4n\"x y\"", "contains a quote or a space"));
}

int main(void) {
    test_shapes();
    test_printing();
    test_strides();
    test_rejections();
    return check_failures() != 0;
}
