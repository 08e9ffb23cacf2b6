//! Errors as RFC 9457 problem documents (`application/problem+json`) with a stable `code`.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use engine::rules::{Lang, RuleViolation};
use serde::Serialize;
use utoipa::ToSchema;

/// A problem document. `code` is stable and meant for programs; `title` and `detail` for people.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Problem {
    /// A URI naming the kind of problem (`urn:kortbord:problem:<code>`).
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// Stable machine-readable code, e.g. `rule-violation`, `version-conflict`.
    pub code: &'static str,
    /// For rule violations: the id of the rule the move breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For rule violations: the explanation in Swedish and English.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<engine::rules::Text>,
    /// For rule violations: where the rule is explained, with its section and related rules
    /// (`GET /v1/games/{game}/rules/{rule}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_url: Option<String>,
    /// For version conflicts: the stream's current version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
    /// The request's id, as in the `X-Request-Id` response header (filled in by the request-id
    /// middleware on its way out, so handlers leave it empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub problem: Box<Problem>,
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, title: &str, detail: impl Into<String>) -> ApiError {
        ApiError {
            status,
            problem: Box::new(Problem {
                kind: format!("urn:kortbord:problem:{code}"),
                title: title.to_string(),
                status: status.as_u16(),
                detail: detail.into(),
                code,
                rule: None,
                explanation: None,
                rule_url: None,
                current_version: None,
                request_id: None,
            }),
            retry_after: None,
        }
    }

    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, "Bad request", detail)
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not-found", "Not found", format!("{what} does not exist"))
    }

    pub fn unauthorized(code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, code, "Unauthorized", detail)
    }

    pub fn forbidden(code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, "Forbidden", detail)
    }

    pub fn conflict(code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, "Conflict", detail)
    }

    pub fn unprocessable(code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, "Unprocessable request", detail)
    }

    /// The expected version was not the current one. `precondition` is true when the client
    /// sent it as `If-Match` (412), false when in the body (409).
    pub fn stale(current: i64, expected: i64, precondition: bool) -> ApiError {
        let (status, code, title) = if precondition {
            (StatusCode::PRECONDITION_FAILED, "precondition-failed", "Precondition failed")
        } else {
            (StatusCode::CONFLICT, "version-conflict", "Version conflict")
        };
        let mut e = ApiError::new(
            status,
            code,
            title,
            format!("expected version {expected}, but the match is at version {current}: reload and try again"),
        );
        e.problem.current_version = Some(current);
        e
    }

    /// Another request appended first.
    pub fn lost_race(current: Option<i64>) -> ApiError {
        let mut e = ApiError::conflict(
            "version-conflict",
            "another move was recorded at the same time: reload the match and try again",
        );
        e.problem.current_version = current;
        e
    }

    /// A move `game`'s rules forbid.
    pub fn violation(game: &str, v: RuleViolation, lang: Lang) -> ApiError {
        let mut e = ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "rule-violation",
            match lang {
                Lang::Sv => "Draget är inte tillåtet",
                Lang::En => "The move is not allowed",
            },
            v.explanation.get(lang).to_string(),
        );
        e.problem.rule_url = Some(crate::routes::games::rule_url(game, &v.rule));
        e.problem.rule = Some(v.rule);
        e.problem.explanation = Some(v.explanation);
        e
    }

    /// A problem written in Swedish and English (`(sv, en)` pairs), in the reader's language.
    pub fn translated(
        status: StatusCode,
        code: &'static str,
        lang: Lang,
        title: (&str, &str),
        detail: (&str, &str),
    ) -> ApiError {
        let pick = |(sv, en): (&str, &str)| if lang == Lang::Sv { sv.to_string() } else { en.to_string() };
        ApiError::new(status, code, &pick(title), pick(detail))
    }

    pub fn unavailable(detail: impl Into<String>) -> ApiError {
        let mut e =
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "service-unavailable", "Service unavailable", detail);
        e.retry_after = Some(1);
        e
    }

    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        tracing::error!(error = %detail, "internal error");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Internal error",
            "something went wrong on our side; the request may be retried with the same Idempotency-Key",
        )
    }
}

/// The Swedish for a problem title the service writes in English (the titles are few and fixed:
/// the detail names the case). Titles already Swedish, and any not listed, stay as they are.
pub fn swedish_title(english: &str) -> Option<&'static str> {
    Some(match english {
        "Bad request" => "Felaktig begäran",
        "Not found" => "Finns inte",
        "Unauthorized" => "Inte inloggad",
        "Forbidden" => "Inte tillåtet för dig",
        "Conflict" => "Konflikt",
        "Version conflict" => "Versionskonflikt",
        "Precondition failed" => "Villkoret gäller inte längre",
        "Unprocessable request" => "Begäran kan inte utföras",
        "Service unavailable" => "Tjänsten är inte tillgänglig",
        "Internal error" => "Internt fel",
        "Not playable yet" => "Går inte att spela än",
        "Unsupported media type" => "Formatet stöds inte",
        "Body too large" => "För stor begäran",
        "Method not allowed" => "Metoden stöds inte",
        "Too many requests" => "För många förfrågningar",
        "Not acceptable" => "Svarsformatet kan inte ges",
        "The move is not allowed" => "Draget är inte tillåtet",
        _ => return None,
    })
}

/// The Swedish `detail` of a problem the service words in English, by its code: what the problem
/// means and what to do, in general (the English detail may name more: a number, a field). The
/// codes whose details are already in the reader's language (`rule-violation`, `no-human-seat`,
/// `invalid-name`) are not here.
pub fn swedish_detail(code: &str) -> Option<&'static str> {
    Some(match code {
        "malformed-json" => "Innehållet är inte giltig JSON.",
        "duplicate-key" => "Innehållet nämner samma nyckel två gånger i ett objekt; varje nyckel får stå en gång.",
        "malformed-request" => "Begäran kunde inte läsas som HTTP: ett huvud innehåller ett styrtecken eller är felformat.",
        "invalid-move" => "Det är inget drag i det här spelet; GET …/legal-moves visar de drag som går nu.",
        "invalid-query" => "Frågesträngen kan inte läsas, eller ett värde i den ligger utanför det tillåtna.",
        "invalid-cursor" => "Markören är inte en som tjänsten har gett ut; ta den från förra sidans next.",
        "invalid-since" => "since och Last-Event-ID är en händelses nummer (seq), 0 eller mer.",
        "invalid-limit" => "limit ligger utanför det tillåtna intervallet.",
        "invalid-if-match" => "If-Match ska vara en version som den skickades i ETag, till exempel \"12\".",
        "invalid-idempotency-key" => "Idempotency-Key ska vara 1 till 200 synliga ASCII-tecken (! till ~), till exempel ett UUID.",
        "missing-token" => "Begäran kräver 'Authorization: Bearer <token>' (POST /v1/auth/guest ger en).",
        "invalid-token" => "Token är inte en som tjänsten har utfärdat, eller inte giltig än.",
        "token-expired" => "Token har gått ut: förnya den med POST /v1/auth/renew.",
        "not-your-seat" => "Platsen är inte din.",
        "not-found" => "Det som efterfrågas finns inte.",
        "game-planned" => "Spelet är planerat men går inte att spela än.",
        "no-such-seat" => "Bordet har ingen sådan plats.",
        "invalid-step" => "Given har inte så många steg.",
        "method-not-allowed" => "Resursen tar inte den metoden; Allow anger de som går.",
        "not-acceptable" => "Resursen svarar i application/json (problem i application/problem+json): skicka en Accept som tillåter det, eller ingen.",
        "version-conflict" => "Matchen har gått vidare: läs om den och försök igen.",
        "seat-taken" => "Platsen är redan tagen.",
        "match-not-started" => "Matchen väntar på att spelare ska ta de lediga platserna.",
        "match-started" => "Matchen har redan börjat: den kan inte längre ställas in eller avbrytas; lämna din plats i stället.",
        "match-ended" => "Matchen är slut: inget mer kan göras i den.",
        "not-creator" => "Bara den som skapade matchen kan ställa in den.",
        "invalid-invitation" => "Matchen är privat: platserna tas med inbjudningskoden som skaparen fick (?invitation=<kod>).",
        "deal-in-progress" => "Given spelas fortfarande: dess protokoll öppnas när den är slut.",
        "duplicate-request" => "En begäran med samma Idempotency-Key behandlas redan; försök igen strax.",
        "precondition-failed" => "If-Match anger en äldre version än matchens: läs om den och försök igen.",
        "body-too-large" => "Innehållet får vara högst 64 KiB.",
        "unsupported-media-type" => "Skicka innehållet som application/json.",
        "invalid-body" => "Innehållet passar inte schemat i API-dokumentet.",
        "invalid-seats" => "Platserna passar inte spelet: se antalet spelare i GET /v1/games/{game}.",
        "invalid-options" => "Alternativen passar inte spelet: se dess alternativ i GET /v1/games/{game}.",
        "invalid-deck" => "En given kortlek är ingen ordning av spelets kort för bordet.",
        "invalid-turn-seconds" => "turn_seconds ska vara 1 till 604800.",
        "wrong-game" => "Draget hör till ett annat spel än matchens.",
        "seat-required" => "Du har flera platser: ange vilken.",
        "idempotency-key-reused" => "Den här Idempotency-Key har redan använts för en annan begäran.",
        "bots-unsettled" => "Botarna skulle göra fler än 10 000 drag och givar innan en människa är i tur; inget sparades.",
        "too-many-moves" => "En kontroll spelar om högst 20 000 drag.",
        "rate-limited" => "För många förfrågningar: vänta så många sekunder som Retry-After anger.",
        "too-many-streams" => "För många öppna strömmar: stäng en, eller vänta så många sekunder som Retry-After anger.",
        "internal" => "Något gick fel hos oss; begäran kan göras om med samma Idempotency-Key.",
        "service-unavailable" => "Databasen svarar inte just nu; försök igen strax (med samma Idempotency-Key).",
        _ => return None,
    })
}

/// The database kept a request's work longer than the request may wait.
pub fn db_timeout(waited: std::time::Duration) -> ApiError {
    tracing::warn!(waited_ms = waited.as_millis() as u64, "the database did not answer in time");
    ApiError::unavailable(format!("the database did not answer within {} ms; try again shortly", waited.as_millis()))
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.problem.code, self.problem.detail)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        response.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if let Some(secs) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        response.body(serde_json::to_string(&self.problem).expect("problems serialize"))
    }
}

impl From<diesel::r2d2::PoolError> for ApiError {
    fn from(e: diesel::r2d2::PoolError) -> ApiError {
        tracing::warn!(error = %crate::db::explain(&e), "no database connection");
        ApiError::unavailable("the database is not reachable right now; try again shortly")
    }
}

impl From<diesel::result::Error> for ApiError {
    fn from(e: diesel::result::Error) -> ApiError {
        use diesel::result::{DatabaseErrorKind, Error};
        match &e {
            Error::DatabaseError(DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand, _) => {
                tracing::warn!(error = %e, "database connection lost");
                ApiError::unavailable("the database connection was lost; try again shortly")
            }
            // The server is a standby, or a primary being demoted: a failover is under way. The
            // connection is dropped (see `db::Manager::has_broken`); a new one finds the new
            // primary, so the request may be sent again.
            Error::DatabaseError(DatabaseErrorKind::ReadOnlyTransaction, _) => {
                tracing::warn!(error = %e, "the database refused a write: it is read-only");
                crate::db::note_read_only();
                ApiError::unavailable("the database is read-only right now (a failover?); try again shortly")
            }
            // The server cancelled a statement that ran past `statement_timeout`: the database
            // is overloaded or stuck, not the request wrong.
            Error::DatabaseError(_, info) if info.message().contains("statement timeout") => {
                tracing::warn!(error = %e, "statement timeout");
                ApiError::unavailable("the database did not answer in time; try again shortly")
            }
            _ => ApiError::internal(e),
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(e: actix_web::error::BlockingError) -> ApiError {
        ApiError::internal(e)
    }
}
