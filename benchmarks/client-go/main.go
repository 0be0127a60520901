// Command clientgo-e2e is the client-go side of kube-events' end-to-end write benchmark (issue 8, "Writes"):
// it records N events over M Pods from T goroutines through k8s.io/client-go/tools/record (EventBroadcaster +
// StartRecordingToSink with the typed clientset's core/v1 EventSinkImpl, QPS/burst raised to 1000) against a
// real kube-apiserver, waits until the sink has written everything, and prints the drain time and the requests
// the sink sent.
//
// Workload (identical in io.github.kubeevents.benchmarks.EndToEndWrite):
//   - objects Pods "perf-<run>-<i>" in --namespace, each with its own UID;
//   - every Pod gets events/objects events; event j of a Pod has reason reasons[j % --reasons] and a message
//     fixed per (Pod, reason), type Normal. So the aggregator never folds (1 distinct message per reason) and the
//     spam filter (client-go's defaults: burst 25 per source+object+type, 1 token / 300 s) passes the first 25
//     events of each Pod: with 4 reasons that is 4 POST + 21 PATCH per Pod, 400 POST + 2100 PATCH in all;
//   - goroutine t owns Pods t, t+T, ...; it records event 0 for each of its Pods, then event 1, ... (so the
//     order per Pod is fixed);
//   - pacing: a producer waits while --max-in-flight events are queued and not yet taken by the sink goroutine
//     (counted in the spam-key function, which the correlator calls once per event), so neither of client-go's
//     1000-slot queues ever drops and both implementations see exactly the same events;
//   - after all producers are done, one sentinel event (its own Pod) is recorded; when its POST returns,
//     everything before it has been written (one FIFO sink goroutine). The sentinel is not counted.
//
// Drain time = from the first Eventf to the end of the last workload write.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"
)

var reasonNames = []string{"Scheduled", "Pulled", "Created", "Started", "Killing", "BackOff", "Unhealthy", "Failed"}

// countingTransport counts requests per method and remembers what the first POST / PATCH looked like.
type countingTransport struct {
	rt          http.RoundTripper
	post, patch atomic.Int64
	other       atomic.Int64
	mu          sync.Mutex
	firstPost   string
	firstPatch  string
	enabled     atomic.Bool
}

var dumpBodies bool

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var sent []byte
	if dumpBodies && req.GetBody != nil {
		if rc, err := req.GetBody(); err == nil {
			sent, _ = io.ReadAll(rc)
			rc.Close()
		}
	}
	resp, err := t.rt.RoundTrip(req)
	if !t.enabled.Load() {
		return resp, err
	}
	switch req.Method {
	case http.MethodPost:
		t.post.Add(1)
	case http.MethodPatch:
		t.patch.Add(1)
	default:
		t.other.Add(1)
	}
	if req.Method == http.MethodPost || req.Method == http.MethodPatch {
		t.mu.Lock()
		first := &t.firstPost
		if req.Method == http.MethodPatch {
			first = &t.firstPatch
		}
		if *first == "" {
			desc := fmt.Sprintf("%s %s content-type=%q accept=%q content-length=%d user-agent=%q", req.Method, req.URL.Path,
				req.Header.Get("Content-Type"), req.Header.Get("Accept"), req.ContentLength, req.Header.Get("User-Agent"))
			if resp != nil {
				desc += fmt.Sprintf(" -> %d %s response content-type=%q", resp.StatusCode, resp.Proto,
					resp.Header.Get("Content-Type"))
			}
			if dumpBodies && resp != nil {
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				resp.Body = io.NopCloser(bytes.NewReader(got))
				desc += fmt.Sprintf("\n#   request body (%d bytes): %s\n#   response body: %s", len(sent), sent, got)
			}
			*first = desc
		}
		t.mu.Unlock()
	}
	return resp, err
}

func (t *countingTransport) reset() {
	t.post.Store(0)
	t.patch.Store(0)
	t.other.Store(0)
}

// countingSink wraps the real EventSink: counts writes, times them, and signals the sentinel.
type countingSink struct {
	inner        record.EventSink
	sentinelName string
	sentinelDone chan struct{}

	created, patched, failed atomic.Int64
	lastWriteEnd             atomic.Int64    // unix nanos of the end of the last workload write
	latencies                []time.Duration // sink goroutine only; read after sentinelDone
}

func (s *countingSink) record(name string, start time.Time, err error, patch bool) {
	end := time.Now()
	if name == s.sentinelName {
		close(s.sentinelDone)
		return
	}
	s.latencies = append(s.latencies, end.Sub(start))
	s.lastWriteEnd.Store(end.UnixNano())
	switch {
	case err != nil:
		s.failed.Add(1)
		fmt.Fprintf(os.Stderr, "write failed: %v\n", err)
	case patch:
		s.patched.Add(1)
	default:
		s.created.Add(1)
	}
}

func (s *countingSink) Create(e *corev1.Event) (*corev1.Event, error) {
	start := time.Now()
	r, err := s.inner.Create(e)
	s.record(e.InvolvedObject.Name, start, err, false)
	return r, err
}

func (s *countingSink) Update(e *corev1.Event) (*corev1.Event, error) {
	return s.inner.Update(e)
}

func (s *countingSink) Patch(e *corev1.Event, data []byte) (*corev1.Event, error) {
	start := time.Now()
	r, err := s.inner.Patch(e, data)
	s.record(e.InvolvedObject.Name, start, err, true)
	return r, err
}

// spamKey is client-go's getSpamKey (unexported in tools/record).
func spamKey(event *corev1.Event) string {
	return strings.Join([]string{
		event.Source.Component,
		event.Source.Host,
		event.InvolvedObject.Kind,
		event.InvolvedObject.Namespace,
		event.InvolvedObject.Name,
		string(event.InvolvedObject.UID),
		event.InvolvedObject.APIVersion,
		event.Type,
	}, "")
}

type options struct {
	server, token, caFile, namespace string
	insecure, protobuf, http1        bool
	events, objects, threads         int
	reasons, maxInFlight, rounds     int
	qps                              float64
	burst                            int
	cpuPids                          string
}

func main() {
	var o options
	flag.StringVar(&o.server, "server", "", "API server URL, e.g. https://127.0.0.1:6443")
	flag.StringVar(&o.token, "token", "", "bearer token")
	flag.StringVar(&o.caFile, "ca-file", "", "PEM file of the CA that signed the serving certificate")
	flag.BoolVar(&o.insecure, "insecure", false, "skip TLS verification")
	flag.StringVar(&o.namespace, "namespace", "default", "namespace of the Pods (and so of their Events)")
	flag.IntVar(&o.events, "events", 10000, "events per round")
	flag.IntVar(&o.objects, "objects", 100, "Pods per round")
	flag.IntVar(&o.threads, "threads", 4, "recording goroutines")
	flag.IntVar(&o.reasons, "reasons", 4, "distinct reasons per Pod, cycled (1..8)")
	flag.IntVar(&o.maxInFlight, "max-in-flight", 900, "events recorded but not yet taken by the sink (< 1000)")
	flag.IntVar(&o.rounds, "rounds", 1, "rounds in this process (round 1 is cold: new connection)")
	flag.Float64Var(&o.qps, "qps", 1000, "client QPS")
	flag.IntVar(&o.burst, "burst", 1000, "client burst")
	flag.BoolVar(&o.protobuf, "protobuf", false, "send and accept application/vnd.kubernetes.protobuf")
	flag.BoolVar(&o.http1, "http1", false, "force HTTP/1.1 (ALPN http/1.1 only)")
	flag.BoolVar(&dumpBodies, "dump-bodies", false, "print the first POST's and PATCH's request and response bodies")
	flag.StringVar(&o.cpuPids, "cpu-pids", "", "comma-separated pids (kube-apiserver, etcd) whose CPU time to report per round")
	flag.Parse()
	if o.server == "" || (o.caFile == "" && !o.insecure) || o.reasons < 1 || o.reasons > len(reasonNames) {
		fmt.Fprintln(os.Stderr, "usage: clientgo-e2e --server URL --token T (--ca-file F | --insecure) [flags]")
		flag.PrintDefaults()
		os.Exit(2)
	}

	cfg := &rest.Config{
		Host:        o.server,
		BearerToken: o.token,
		QPS:         float32(o.qps),
		Burst:       o.burst,
		TLSClientConfig: rest.TLSClientConfig{
			CAFile:   o.caFile,
			Insecure: o.insecure,
		},
	}
	if o.http1 {
		cfg.TLSClientConfig.NextProtos = []string{"http/1.1"}
	}
	if o.protobuf {
		cfg.ContentType = "application/vnd.kubernetes.protobuf"
		cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	}
	counter := &countingTransport{}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		counter.rt = rt
		return counter
	})
	clientset, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("# client-go v0.35.4 %s, events=%d objects=%d threads=%d reasons=%d max-in-flight=%d qps=%g burst=%d protobuf=%v http1=%v\n",
		o.server, o.events, o.objects, o.threads, o.reasons, o.maxInFlight, o.qps, o.burst, o.protobuf, o.http1)
	for round := 1; round <= o.rounds; round++ {
		runRound(round, o, clientset, counter)
	}
	fmt.Printf("# first POST:  %s\n# first PATCH: %s\n", counter.firstPost, counter.firstPatch)
}

func runRound(round int, o options, clientset *kubernetes.Clientset, counter *countingTransport) {
	run := randomHex(4)
	sem := make(chan struct{}, o.maxInFlight)
	sink := &countingSink{
		inner:        &typedcorev1.EventSinkImpl{Interface: clientset.CoreV1().Events("")},
		sentinelName: "perf-" + run + "-sentinel",
		sentinelDone: make(chan struct{}),
		latencies:    make([]time.Duration, 0, o.events),
	}
	var taken atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	broadcaster := record.NewBroadcaster(record.WithContext(ctx), record.WithCorrelatorOptions(record.CorrelatorOptions{
		SpamKeyFunc: func(e *corev1.Event) string {
			taken.Add(1)
			select {
			case <-sem:
			default:
			}
			return spamKey(e)
		},
	}))
	broadcaster.StartRecordingToSink(sink)
	recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "perf-harness", Host: "perf-host"})

	pods := make([]*corev1.Pod, o.objects)
	for i := range pods {
		pods[i] = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("perf-%s-%d", run, i), Namespace: o.namespace, UID: types.UID(run + "-uid-" + strconv.Itoa(i)),
		}}
	}
	perObject := o.events / o.objects

	counter.reset()
	counter.enabled.Store(true)
	cpu0 := selfCPU()
	pcpu0 := pidsCPU(o.cpuPids)
	busy0, idle0 := machineCPU()
	start := time.Now()
	var wg sync.WaitGroup
	for t := 0; t < o.threads; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			for j := 0; j < perObject; j++ {
				reason := reasonNames[j%o.reasons]
				for i := t; i < o.objects; i += o.threads {
					sem <- struct{}{}
					recorder.Eventf(pods[i], corev1.EventTypeNormal, reason, "%s happened to %s", reason, pods[i].Name)
				}
			}
		}(t)
	}
	wg.Wait()
	recorded := time.Since(start)
	sentinel := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: sink.sentinelName, Namespace: o.namespace, UID: types.UID(run + "-sentinel")}}
	recorder.Event(sentinel, corev1.EventTypeNormal, "Done", "sentinel")
	select {
	case <-sink.sentinelDone:
	case <-time.After(10 * time.Minute):
		fmt.Fprintln(os.Stderr, "sentinel not written within 10 minutes")
		os.Exit(1)
	}
	drain := time.Duration(sink.lastWriteEnd.Load() - start.UnixNano())
	cpu := selfCPU() - cpu0
	pcpu := pidsCPU(o.cpuPids)
	busy1, idle1 := machineCPU()
	counter.enabled.Store(false)
	cancel()
	broadcaster.Shutdown()

	writes := sink.created.Load() + sink.patched.Load()
	lat := sink.latencies
	sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	// the sentinel's POST is in the transport counts: take it out
	post, patch := counter.post.Load()-1, counter.patch.Load()
	serverCPU := ""
	others := (busy1 - busy0) - cpu
	for i := range pcpu {
		serverCPU += fmt.Sprintf(" pid%d_cpu_ms=%d", i, (pcpu[i] - pcpu0[i]).Milliseconds())
		others -= pcpu[i] - pcpu0[i]
	}
	serverCPU += fmt.Sprintf(" machine_busy_ms=%d machine_idle_ms=%d other_procs_cpu_ms=%d",
		(busy1 - busy0).Milliseconds(), (idle1 - idle0).Milliseconds(), others.Milliseconds())
	fmt.Printf("client-go round=%d cold=%v drain_ms=%.1f recorded_ms=%.1f taken=%d created=%d patched=%d failed=%d http_post=%d http_patch=%d http_other=%d per_write_ms=%.3f write_avg_ms=%.3f write_p50_ms=%.3f write_p99_ms=%.3f write_sum_ms=%.1f self_cpu_ms=%d self_cpu_per_write_us=%.0f%s\n",
		round, round == 1, ms(drain), ms(recorded), taken.Load()-1, sink.created.Load(), sink.patched.Load(), sink.failed.Load(),
		post, patch, counter.other.Load(), ms(drain)/float64(writes), ms(sum)/float64(len(lat)), ms(pct(lat, 0.50)), ms(pct(lat, 0.99)), ms(sum),
		cpu.Milliseconds(), float64(cpu.Microseconds())/float64(writes), serverCPU)
}

func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// machineCPU reads the busy and idle time of all cores from /proc/stat (ticks of 10 ms).
func machineCPU() (busy, idle time.Duration) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	f := strings.Fields(strings.SplitN(string(data), "\n", 2)[0])
	v := func(i int) int64 { n, _ := strconv.ParseInt(f[i], 10, 64); return n }
	busy = time.Duration(v(1)+v(2)+v(3)+v(6)+v(7)+v(8)) * 10 * time.Millisecond
	idle = time.Duration(v(4)+v(5)) * 10 * time.Millisecond
	return busy, idle
}

// pidsCPU reads utime+stime of each pid from /proc/<pid>/stat (clock ticks of 10 ms).
func pidsCPU(pids string) []time.Duration {
	if pids == "" {
		return nil
	}
	var out []time.Duration
	for _, p := range strings.Split(pids, ",") {
		data, err := os.ReadFile("/proc/" + strings.TrimSpace(p) + "/stat")
		if err != nil {
			out = append(out, 0)
			continue
		}
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		ut, _ := strconv.ParseInt(fields[11], 10, 64)
		st, _ := strconv.ParseInt(fields[12], 10, 64)
		out = append(out, time.Duration(ut+st)*10*time.Millisecond)
	}
	return out
}
