/* Compares what the run left with the spec's allowed values and prints one
 * line per word that fails, in the words of atomfuzz's judge, then PASS or
 * FAIL. Returns the exit code: 0 PASS, 1 FAIL. */
static void print_allowed(const struct repro_check* c) {
  unsigned i;
  if (c->count == 1) {
    printf("0x%08x", c->values[0]);
    return;
  }
  printf("one of {");
  for (i = 0; i < c->count; ++i)
    printf("%s0x%08x", i ? ", " : "", c->values[i]);
  printf("}");
}

static int repro_allows(const struct repro_check* c, uint32_t v) {
  unsigned lo = 0, hi = c->count; /* binary search: values are sorted */
  while (lo < hi) {
    unsigned mid = lo + (hi - lo) / 2;
    if (c->values[mid] == v) return 1;
    if (c->values[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return 0;
}

/* Copies of the counts: a loop to a literal 0 trips -Wtype-limits. */
static const unsigned repro_uav_total = REPRO_UAV_COUNT;
static const unsigned repro_check_total = REPRO_CHECK_COUNT;

static int repro_uav_index(unsigned slot) {
  unsigned i;
  for (i = 0; i < repro_uav_total; ++i)
    if (repro_uavs[i].slot == slot) return (int)i;
  return -1;
}

static int repro_judge(const struct repro_result* r) {
  unsigned i, w, failed = 0, checked = 0;
  for (i = 0; i < repro_check_total; ++i) {
    const struct repro_check* c = &repro_checks[i];
    int u = repro_uav_index(c->slot);
    if (u < 0) continue;
    if (c->is_counter) {
      ++checked;
      if (repro_allows(c, r->counters[u])) continue;
      ++failed;
      printf("u%u counter: expected ", c->slot);
      print_allowed(c);
      printf(", got 0x%08x\n", r->counters[u]);
      continue;
    }
    for (w = c->first; w <= c->last && w < repro_uavs[u].words; ++w) {
      uint32_t got = r->words[u][w];
      ++checked;
      if (repro_allows(c, got)) continue;
      ++failed;
      printf("u%u[%u]: expected ", c->slot, w);
      print_allowed(c);
      printf(", got 0x%08x\n", got);
    }
  }
  if (failed) {
    printf("FAIL: %u of %u checked values are not allowed (%s)\n", failed,
           checked, REPRO_NAME);
    return 1;
  }
  printf("PASS: %u values checked (%s)\n", checked, REPRO_NAME);
  return 0;
}
