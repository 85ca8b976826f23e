package llm

import "encoding/json"

// RequestBytes is the size of the JSON body Complete would send for req
// (without the stream fields a streamed request adds): what a cost
// estimate counts tokens from, with no request made.
func (c *Client) RequestBytes(req Request) (int, error) {
	p, err := c.params(req)
	if err != nil {
		return 0, err
	}
	data, err := json.Marshal(p)
	return len(data), err
}
