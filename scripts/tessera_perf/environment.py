"""The environment of a run, from its header: what must match for two
runs' times to be comparable. A comparison across environments says so
and exits with its own status (EXIT_ENVIRONMENT)."""

ENV_KEYS = ("isa", "threads", "compiler", "build_type", "build_options", "cpu")
EXIT_ENVIRONMENT = 3


def environment(header):
    """{key: value} of the header's environment keys."""
    return {k: header.get(k, "unknown") for k in ENV_KEYS}


def differences(base_header, new_header, ignore=()):
    """[(key, base value, new value)] where the environments differ."""
    a, b = environment(base_header), environment(new_header)
    return [(k, a[k], b[k]) for k in ENV_KEYS if k not in ignore and a[k] != b[k]]


def describe(diffs):
    """One line naming every difference, or "" when there is none."""
    return "; ".join(f"{k}: {a} -> {b}" for k, a, b in diffs)
