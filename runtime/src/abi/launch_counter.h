/* launch_counter.h - how many kernel launches went through the runtime,
 * for the report's share of launches that ran inside graphs. */
#ifndef PYGRAPH_LAUNCH_COUNTER_H
#define PYGRAPH_LAUNCH_COUNTER_H

/* Called for every routed kernel launch; a thread-local increment. */
void pygraph_count_launch(void);

/* Sum over all threads, dead ones included. */
unsigned long long pygraph_total_launches(void);

#endif /* PYGRAPH_LAUNCH_COUNTER_H */
