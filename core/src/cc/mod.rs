//! Congestion control: how switches signal congestion and how sources respond to it.
//!
//! - [`marking`]: ECN marking policies at switches (Globecom'02 §IV);
//! - [`response`]: the source-response functions AIMD, FIMD, LIPD (INFOCOM'03 §V);
//! - [`ipd`]: their discrete versions as InfiniBand IPD tables;
//! - [`source`]: a flow's rate limit and window and how each ACK changes them;
//! - [`pft`]: Proactive Flow Throttling at the host NIC (IFIP'21);
//! - [`ibcc`]: InfiniBand's own congestion control, Annex A10 (FECN/BECN, CCTI and the CCT).

pub mod ibcc;
pub mod ipd;
pub mod marking;
pub mod pft;
pub mod response;
pub mod source;
