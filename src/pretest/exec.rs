//! The polite scheduler: every prepared request runs at most once at a time per test, with a
//! bound on requests in flight overall and per host, connect and total timeouts, HTTP 429
//! retried with backoff, bounded redirects and a response-size cap.

use super::request::PreparedRequest;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

#[derive(Debug, Clone)]
pub struct Limits {
    pub concurrency: usize,
    pub per_host: usize,
    pub connect_timeout: Duration,
    /// For one attempt: connect, send, and read the whole body.
    pub total_timeout: Duration,
    pub max_body_bytes: u64,
    pub max_redirects: usize,
    pub retries_429: u32,
    /// Backoff before retry n (0-based) is `backoff_base * 2^n`.
    pub backoff_base: Duration,
    /// Host names sent to a fixed address instead of being resolved (`--resolve`).
    pub resolve: Vec<(String, std::net::SocketAddr)>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            concurrency: 16,
            per_host: 4,
            connect_timeout: Duration::from_secs(5),
            total_timeout: Duration::from_secs(15),
            max_body_bytes: 10 * 1024 * 1024,
            max_redirects: 5,
            retries_429: 3,
            backoff_base: Duration::from_millis(600),
            resolve: Vec::new(),
        }
    }
}

/// What came back for one request. `error` is set when no usable response arrived; it never
/// holds a URL (URLs may carry keys).
#[derive(Debug, Clone, Default)]
pub struct Fetched {
    pub status: Option<u16>,
    pub body: Vec<u8>,
    pub error: Option<String>,
    pub duration: Duration,
    pub retries: u32,
}

/// Runs all requests and returns their results in the given order. `on_done(done, total)` is
/// called after each one (for a progress display).
pub fn run_all(
    requests: Vec<PreparedRequest>,
    limits: &Limits,
    on_done: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Fetched> {
    if requests.is_empty() {
        return Vec::new();
    }
    let (runtime, client) = match setup(limits, "pretest") {
        Ok(setup) => setup,
        Err(message) => {
            return requests
                .iter()
                .map(|_| Fetched {
                    error: Some(message.clone()),
                    ..Fetched::default()
                })
                .collect();
        }
    };
    runtime.block_on(run_async(client, requests, limits, on_done))
}

/// A single-threaded runtime and a client with the limits' timeouts and redirect bound.
fn setup(
    limits: &Limits,
    purpose: &str,
) -> Result<(tokio::runtime::Runtime, reqwest::Client), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| format!("cannot start the HTTP runtime: {err}"))?;
    let _context = runtime.enter();
    let mut builder = reqwest::Client::builder();
    for (host, addr) in &limits.resolve {
        builder = builder.resolve(host, *addr);
    }
    let client = builder
        .connect_timeout(limits.connect_timeout)
        .timeout(limits.total_timeout)
        .redirect(reqwest::redirect::Policy::limited(limits.max_redirects))
        .user_agent(format!(
            "flowmcp-grading/{} ({purpose})",
            env!("CARGO_PKG_VERSION")
        ))
        .build()
        .map_err(|err| format!("cannot build the HTTP client: {}", err.without_url()))?;
    Ok((runtime, client))
}

async fn run_async(
    client: reqwest::Client,
    requests: Vec<PreparedRequest>,
    limits: &Limits,
    on_done: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Fetched> {
    let total = requests.len();
    let global = Arc::new(Semaphore::new(limits.concurrency.max(1)));
    let mut hosts: HashMap<String, Arc<Semaphore>> = HashMap::new();
    for request in &requests {
        hosts
            .entry(request.host.clone())
            .or_insert_with(|| Arc::new(Semaphore::new(limits.per_host.max(1))));
    }
    let done = AtomicUsize::new(0);
    let futures = requests.into_iter().map(|request| {
        let client = client.clone();
        let global = global.clone();
        let host = hosts[&request.host].clone();
        let done = &done;
        async move {
            // The host permit first, so that waiting for a busy host holds no global slot.
            let _host = host.acquire_owned().await;
            let _slot = global.acquire_owned().await;
            let fetched = fetch_with_retries(&client, &request, limits).await;
            on_done(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            fetched
        }
    });
    futures_join_all(futures).await
}

/// Polls all futures on the current task until each is done, keeping their order (what
/// `futures::future::join_all` does, without the extra dependency).
async fn futures_join_all<F: std::future::Future>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output> {
    let futures: Vec<F> = futures.collect();
    let mut results: Vec<Option<F::Output>> = (0..futures.len()).map(|_| None).collect();
    let mut pinned: Vec<_> = futures.into_iter().map(Box::pin).enumerate().collect();
    std::future::poll_fn(|cx| {
        pinned.retain_mut(|(index, future)| match future.as_mut().poll(cx) {
            std::task::Poll::Ready(output) => {
                results[*index] = Some(output);
                false
            }
            std::task::Poll::Pending => true,
        });
        if pinned.is_empty() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    results
        .into_iter()
        .map(|r| r.expect("every future completed"))
        .collect()
}

async fn fetch_with_retries(
    client: &reqwest::Client,
    request: &PreparedRequest,
    limits: &Limits,
) -> Fetched {
    let started = Instant::now();
    let mut retries = 0;
    loop {
        let mut fetched = fetch_once(client, request, limits).await;
        if fetched.status == Some(429) && retries < limits.retries_429 {
            tokio::time::sleep(limits.backoff_base * 2u32.pow(retries)).await;
            retries += 1;
            continue;
        }
        fetched.retries = retries;
        fetched.duration = started.elapsed();
        return fetched;
    }
}

async fn fetch_once(
    client: &reqwest::Client,
    request: &PreparedRequest,
    limits: &Limits,
) -> Fetched {
    let mut builder = client.request(request.method.clone(), request.url.clone());
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    if let Some(body) = &request.body {
        builder = builder
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(serde_json::to_vec(body).unwrap_or_default());
    }
    let attempt = async {
        let mut response = builder.send().await.map_err(describe)?;
        let status = response.status().as_u16();
        if let Some(length) = response.content_length()
            && length > limits.max_body_bytes
        {
            return Err(format!(
                "response larger than the cap of {} bytes ({length} announced)",
                limits.max_body_bytes
            ));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(describe)? {
            if (body.len() + chunk.len()) as u64 > limits.max_body_bytes {
                return Err(format!(
                    "response larger than the cap of {} bytes",
                    limits.max_body_bytes
                ));
            }
            body.extend_from_slice(&chunk);
        }
        Ok((status, body))
    };
    match tokio::time::timeout(limits.total_timeout, attempt).await {
        Ok(Ok((status, body))) => Fetched {
            status: Some(status),
            body,
            ..Fetched::default()
        },
        Ok(Err(error)) => Fetched {
            error: Some(error),
            ..Fetched::default()
        },
        Err(_) => Fetched {
            error: Some(format!(
                "timed out after {} ms",
                limits.total_timeout.as_millis()
            )),
            ..Fetched::default()
        },
    }
}

/// A transport error in words, without the URL.
fn describe(err: reqwest::Error) -> String {
    let kind = if err.is_timeout() {
        "timed out"
    } else if err.is_redirect() {
        "too many redirects"
    } else if err.is_connect() {
        "connection failed"
    } else if err.is_body() || err.is_decode() {
        "reading the response failed"
    } else {
        "request failed"
    };
    let detail = std::error::Error::source(&err)
        .map(|source| {
            let mut text = source.to_string();
            let mut next = source.source();
            while let Some(inner) = next {
                text = format!("{text}: {inner}");
                next = inner.source();
            }
            text
        })
        .unwrap_or_default();
    let err = err.without_url();
    if detail.is_empty() {
        format!("{kind}: {err}")
    } else {
        format!("{kind}: {detail}")
    }
}

/// Probes URLs (HEAD, then GET when HEAD does not answer 200) with the same limits, and returns
/// the final HTTP status or a transport error per URL, in order.
pub fn probe_urls(urls: &[reqwest::Url], limits: &Limits) -> Vec<Result<u16, String>> {
    if urls.is_empty() {
        return Vec::new();
    }
    let (runtime, client) = match setup(limits, "docs check") {
        Ok(setup) => setup,
        Err(message) => return urls.iter().map(|_| Err(message.clone())).collect(),
    };
    runtime.block_on(async {
        let global = Semaphore::new(limits.concurrency.max(1));
        let futures = urls.iter().map(|url| {
            let client = &client;
            let global = &global;
            async move {
                let _slot = global.acquire().await;
                let head = client.head(url.clone()).send().await;
                match head {
                    Ok(response) if response.status().as_u16() == 200 => Ok(200),
                    _ => match client.get(url.clone()).send().await {
                        Ok(response) => Ok(response.status().as_u16()),
                        Err(err) => Err(describe(err)),
                    },
                }
            }
        });
        futures_join_all(futures).await
    })
}
