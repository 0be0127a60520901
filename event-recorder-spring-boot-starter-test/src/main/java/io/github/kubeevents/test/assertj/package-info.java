/**
 * AssertJ assertions on recorded events: {@link KubeEventsAssertions} is the entry point.
 */
@NullMarked
package io.github.kubeevents.test.assertj;

import org.jspecify.annotations.NullMarked;
