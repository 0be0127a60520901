// Command paced is the client-go side of kube-events' paced caller benchmark (issue 14; the Java side is
// io.github.kubeevents.benchmarks.PacedCaller): one goroutine records at a fixed rate through
// k8s.io/client-go/tools/record (NewBroadcaster + StartRecordingToSink with the default correlator) into an
// in-process sink, and each Eventf is timed into an HDR histogram.
//
// Workload (identical on the Java side):
//   - --objects Pods prod/web-<i> (uid uid-<i>, TypeMeta v1/Pod set, so GetReference reads it from the object);
//   - call i on Pod i % objects: Warning, reason FailedCreate, pattern "Error creating: %s" with the argument
//     "quota exceeded" for 9 calls in 10 and "quota exceeded #<i>" (a new message) for every 10th, built before
//     the clock starts;
//   - absolute schedule: call i is due at start + i/rate; the goroutine sleeps while the next call is more than
//     200 µs away and otherwise yields (runtime.Gosched); a late call is made at once, never skipped, and the
//     lateness is reported (behind_max_us, late_calls);
//   - only the call is timed (time.Now before, time.Since after), after --warmup seconds, into a histogram with 3
//     significant digits; calls over 10 µs are counted exactly;
//   - --sink instant answers at once; --sink stuck never answers;
//   - cpu_s: the process's CPU time over the run (user + system), what the goroutines behind the call cost.
//
// Drops (whole run, warm-up included): incoming = the recorder's "too many queued events" errors, counted by a
// logr sink installed with klog.SetLogger (it formats nothing, so a drop costs the caller less than with klog's
// default output); subscriber = events accepted but never seen by the sink's correlator (its spam-key function
// counts them), less the 1000 that a stuck sink's watcher channel still holds. The correlator's own skips
// (spam filter) are reported as spam_filtered, derived from the sink's writes.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
)

const watcherQueueLength = 1000 // client-go's watch.Broadcaster queue per watcher (tools/record)

// dropCounter is a logr.LogSink that counts the recorder's "too many queued events" errors and discards the rest.
type dropCounter struct {
	incoming atomic.Int64
	other    atomic.Int64
}

func (d *dropCounter) Init(logr.RuntimeInfo)          {}
func (d *dropCounter) Enabled(int) bool               { return false }
func (d *dropCounter) Info(int, string, ...any)       {}
func (d *dropCounter) WithValues(...any) logr.LogSink { return d }
func (d *dropCounter) WithName(string) logr.LogSink   { return d }
func (d *dropCounter) Error(_ error, msg string, _ ...any) {
	if strings.Contains(msg, "too many queued events") {
		d.incoming.Add(1)
	} else {
		d.other.Add(1)
	}
}

type sink struct {
	stuck            bool
	block            chan struct{}
	created, patched atomic.Int64
}

func (s *sink) wait() {
	if s.stuck {
		<-s.block
	}
}

func (s *sink) Create(e *corev1.Event) (*corev1.Event, error) {
	s.wait()
	s.created.Add(1)
	return e, nil
}

func (s *sink) Update(e *corev1.Event) (*corev1.Event, error) {
	s.wait()
	return e, nil
}

func (s *sink) Patch(e *corev1.Event, _ []byte) (*corev1.Event, error) {
	s.wait()
	s.patched.Add(1)
	return e, nil
}

func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

func main() {
	rate := flag.Int("rate", 20000, "calls per second")
	warmup := flag.Int("warmup", 5, "warm-up seconds (not measured)")
	duration := flag.Int("duration", 20, "measured seconds")
	objects := flag.Int("objects", 200, "Pods")
	sinkKind := flag.String("sink", "instant", "instant or stuck")
	label := flag.String("label", "client-go", "name in the output")
	flag.Parse()
	if *sinkKind != "instant" && *sinkKind != "stuck" {
		fmt.Fprintln(os.Stderr, "--sink must be instant or stuck")
		os.Exit(2)
	}

	drops := &dropCounter{}
	klog.SetLogger(logr.New(drops))

	var seen atomic.Int64 // events that reached the sink's correlator
	options := record.CorrelatorOptions{SpamKeyFunc: func(e *corev1.Event) string {
		seen.Add(1)
		return strings.Join([]string{e.Source.Component, e.Source.Host, e.InvolvedObject.Kind,
			e.InvolvedObject.Namespace, e.InvolvedObject.Name, string(e.InvolvedObject.UID),
			e.InvolvedObject.APIVersion, e.Type}, "")
	}}
	s := &sink{stuck: *sinkKind == "stuck", block: make(chan struct{})}
	broadcaster := record.NewBroadcaster(record.WithCorrelatorOptions(options))
	broadcaster.StartRecordingToSink(s)
	recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "benchmark", Host: "host"})
	pods := make([]*corev1.Pod, *objects)
	for i := range pods {
		pods[i] = &corev1.Pod{
			TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "prod", UID: types.UID(fmt.Sprintf("uid-%d", i))},
		}
	}

	warmupCalls := int64(*rate) * int64(*warmup)
	totalCalls := warmupCalls + int64(*rate)*int64(*duration)
	period := 1e9 / float64(*rate)
	hist := hdrhistogram.New(1, int64(10*time.Second), 3)
	var over10us, lateCalls, behindMax, incomingWarmup int64
	start := time.Now()
	for i := int64(0); i < totalCalls; i++ {
		due := time.Duration(float64(i) * period)
		if i == warmupCalls {
			incomingWarmup = drops.incoming.Load()
		}
		for {
			ahead := due - time.Since(start)
			if ahead <= 0 {
				break
			}
			if ahead > 200*time.Microsecond {
				time.Sleep(ahead - 100*time.Microsecond)
			} else {
				runtime.Gosched()
			}
		}
		arg := "quota exceeded"
		if i%10 == 9 {
			arg = fmt.Sprintf("quota exceeded #%d", i)
		}
		pod := pods[i%int64(*objects)]
		t0 := time.Now()
		recorder.Eventf(pod, corev1.EventTypeWarning, "FailedCreate", "Error creating: %s", arg)
		took := time.Since(t0).Nanoseconds()
		if i >= warmupCalls {
			if took < 1 {
				took = 1
			}
			_ = hist.RecordValue(min(took, hist.HighestTrackableValue()))
			if took > 10000 {
				over10us++
			}
			behind := (t0.Sub(start) - due).Nanoseconds()
			behindMax = max(behindMax, behind)
			if float64(behind) > period {
				lateCalls++
			}
		}
	}
	elapsed := time.Since(start)
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	cpuSeconds := time.Duration(usage.Utime.Nano() + usage.Stime.Nano()).Seconds()

	// let the sink catch up (instant) before reading the counters; a stuck sink never does
	accepted := totalCalls - drops.incoming.Load()
	deadline := time.Now().Add(20 * time.Second)
	if !s.stuck {
		// until every accepted event reached the correlator, or nothing moved for a second (the rest was
		// dropped at the watcher queue)
		last, lastMove := seen.Load(), time.Now()
		for seen.Load() < accepted && time.Now().Before(deadline) && time.Since(lastMove) < time.Second {
			time.Sleep(20 * time.Millisecond)
			if now := seen.Load(); now != last {
				last, lastMove = now, time.Now()
			}
		}
	} else {
		time.Sleep(500 * time.Millisecond)
	}
	queued := int64(0)
	if s.stuck {
		queued = watcherQueueLength
	}
	subscriberDrops := accepted - seen.Load() - queued
	if subscriberDrops < 0 {
		subscriberDrops = 0
	}
	written := s.created.Load() + s.patched.Load()
	spam := int64(0)
	if !s.stuck {
		spam = seen.Load() - written
	}
	dropText := fmt.Sprintf("queue_full:%d,spam_filtered:%d,logged_errors_other:%d",
		drops.incoming.Load()+subscriberDrops, spam, drops.other.Load())

	measured := totalCalls - warmupCalls
	fmt.Printf("%s rate=%d/s sink=%s objects=%d warmup=%ds measured=%ds (%d calls, took %.1f s) load=%s\n", *label,
		*rate, *sinkKind, *objects, *warmup, *duration, measured, elapsed.Seconds(), load())
	fmt.Printf("  caller ns: p50 %d  p99 %d  p99.9 %d  p99.99 %d  max %d  mean %.0f; calls over 10 us: %d\n",
		hist.ValueAtQuantile(50), hist.ValueAtQuantile(99), hist.ValueAtQuantile(99.9), hist.ValueAtQuantile(99.99),
		hist.Max(), hist.Mean(), over10us)
	fmt.Printf("  schedule: max %d us behind, %d calls started over one period late; process CPU %.1f s\n",
		behindMax/1000, lateCalls, cpuSeconds)
	fmt.Printf("  drops (whole run incl. warm-up): queue_full incoming %d, subscriber %d (of which in the warm-up: %d, ?);"+
		" all reasons {%s}\n", drops.incoming.Load(), subscriberDrops, incomingWarmup, dropText)
	fmt.Printf("RESULT impl=%s rate=%d sink=%s calls=%d p50=%d p99=%d p999=%d p9999=%d max=%d over10us=%d "+
		"behind_max_us=%d late_calls=%d drop_incoming=%d drop_subscriber=%d drop_incoming_warmup=%d "+
		"drop_subscriber_warmup=? cpu_s=%.1f drops=%s load=%s\n",
		*label, *rate, *sinkKind, measured, hist.ValueAtQuantile(50), hist.ValueAtQuantile(99),
		hist.ValueAtQuantile(99.9), hist.ValueAtQuantile(99.99), hist.Max(), over10us, behindMax/1000, lateCalls,
		drops.incoming.Load(), subscriberDrops, incomingWarmup, cpuSeconds, dropText, load())
	os.Exit(0)
}
